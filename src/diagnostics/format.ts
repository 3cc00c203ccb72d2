import type { Diagnostic } from './diagnostic.js';

export interface TextFormatOptions {
  readonly color: boolean;
  /** File contents by diagnostic file name, for code frames. */
  readonly sources: ReadonlyMap<string, string>;
}

const ansi = { red: '\x1b[31m', yellow: '\x1b[33m', dim: '\x1b[2m', bold: '\x1b[1m', cyan: '\x1b[36m', reset: '\x1b[0m' };

export function formatText(diagnostics: readonly Diagnostic[], options: TextFormatOptions): string {
  const paint = (code: string, s: string): string => (options.color ? `${code}${s}${ansi.reset}` : s);
  const blocks = diagnostics.map((d) => {
    const sev = paint(d.severity === 'error' ? ansi.red : ansi.yellow, d.severity);
    const head = `${paint(ansi.bold, `${d.file}:${d.line}:${d.column}`)} ${sev} ${paint(ansi.cyan, d.code)} ${d.message}`;
    const frame = codeFrame(options.sources.get(d.file), d.line, d.column, paint);
    return frame === '' ? head : `${head}\n${frame}`;
  });
  return blocks.join('\n\n');
}

export function formatSummary(diagnostics: readonly Diagnostic[], files: number): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${files} spec file${files === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  return JSON.stringify(
    diagnostics.map(({ code, severity, message, file, line, column, path, fix }) => ({ code, severity, message, file, line, column, path, ...(fix !== undefined ? { fix } : {}) })),
    null,
    2,
  );
}

/** Longest stretch of a line a frame shows: a minified description is one line of megabytes. */
const MAX_FRAME_WIDTH = 160;

function codeFrame(
  text: string | undefined,
  line: number,
  column: number,
  paint: (code: string, s: string) => string,
): string {
  if (text === undefined) return '';
  const lines = text.split(/\r?\n/);
  const target = lines[line - 1];
  if (target === undefined) return '';
  const width = String(Math.min(lines.length, line + 1)).length;
  // One window for the lines shown, around the column, so that they stay aligned.
  const start = target.length <= MAX_FRAME_WIDTH ? 0 : Math.max(0, Math.min(column - 1 - MAX_FRAME_WIDTH / 2, target.length - MAX_FRAME_WIDTH));
  const clip = (s: string): string => (s.length <= MAX_FRAME_WIDTH && start === 0 ? s : `${start > 0 ? '…' : ''}${s.slice(start, start + MAX_FRAME_WIDTH)}${s.length > start + MAX_FRAME_WIDTH ? '…' : ''}`);
  const out: string[] = [];
  for (let n = Math.max(1, line - 1); n <= Math.min(lines.length, line + 1); n++) {
    const gutter = `${String(n).padStart(width)} | `;
    const content = visible(clip(lines[n - 1] ?? ''));
    out.push(n === line ? `${paint(ansi.bold, '>')} ${gutter}${content}` : paint(ansi.dim, `  ${gutter}${content}`));
    if (n === line) {
      const pad = visible(`${start > 0 ? '…' : ''}${target.slice(start, Math.max(start, column - 1))}`).replace(/[^\t]/g, ' ');
      out.push(`  ${' '.repeat(width)} | ${pad}${paint(ansi.red, '^')}`);
    }
  }
  return out.join('\n');
}

/** Control characters in a spec must not drive the terminal when we echo the line back. */
function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
