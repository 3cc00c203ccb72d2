import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, type CodeAction, type Diagnostic as LspDiagnostic, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic, Fix } from '../diagnostics/diagnostic.js';

/**
 * `check`'s diagnostics as LSP diagnostics: the same code, message and start position (LSP counts from 0),
 * the range running to the end of the word or quoted string there; a diagnostic's fix rides in `data` and
 * comes back as a quick fix (codeActions).
 */
export function toLsp(diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, string>, cwd: string): Map<string, LspDiagnostic[]> {
  const byFile = new Map<string, LspDiagnostic[]>();
  // Each file's lines once: a spec with a thousand diagnostics must not split its text a thousand times.
  const lines = new Map<string, readonly string[]>();
  const linesOf = (file: string): readonly string[] => lines.get(file) ?? lines.set(file, (sources.get(file) ?? '').split('\n')).get(file)!;
  for (const d of diagnostics) {
    const file = resolve(cwd, d.file);
    const lineText = linesOf(d.file)[d.line - 1] ?? '';
    const start = { line: d.line - 1, character: d.column - 1 };
    const rest = lineText.slice(d.column - 1);
    const word = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s,{}[\]#]+)/.exec(rest)?.[0].replace(/:$/, '') ?? '';
    const length = word.length > 0 ? word.length : Math.min(1, rest.length);
    const out: LspDiagnostic = {
      range: { start, end: { line: start.line, character: start.character + length } },
      severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      code: d.code,
      source: 'mcpgen',
      message: d.message,
      ...(d.fix !== undefined ? { data: { fix: d.fix } } : {}),
    };
    const list = byFile.get(file);
    if (list === undefined) byFile.set(file, [out]);
    else list.push(out);
  }
  return byFile;
}

/** The quick fix of a diagnostic that carries one. */
export function codeActionFor(d: LspDiagnostic, cwd: string): CodeAction | undefined {
  const fix = (d.data as { fix?: Fix } | undefined)?.fix;
  if (fix === undefined) return undefined;
  const changes: Record<string, TextEdit[]> = {};
  for (const e of fix.edits) {
    const uri = pathToFileURL(resolve(cwd, e.file)).href;
    (changes[uri] ??= []).push({
      range: { start: { line: e.start.line - 1, character: e.start.column - 1 }, end: { line: e.end.line - 1, character: e.end.column - 1 } },
      newText: e.newText,
    });
  }
  return { title: fix.title, kind: 'quickfix', diagnostics: [d], isPreferred: true, edit: { changes } };
}
