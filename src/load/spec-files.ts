import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnosticAt, parseSource, type SourceFile } from '../parse/source.js';
import { expandGlob, isGlob } from './glob.js';

/** One server spec: its root file and the files it pulls in with `include:`. */
export interface LoadedSpec {
  readonly root: SourceFile;
  readonly includes: readonly SourceFile[];
}

export interface LoadResult {
  readonly spec: LoadedSpec | undefined;
  readonly diagnostics: Diagnostic[];
}

/** Display name for a file: relative to cwd when inside it, so messages stay short and stable. */
export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : abs;
}

export function readSource(absPath: string, cwd: string): { source?: SourceFile; diagnostics: Diagnostic[]; error?: string } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(absPath);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { diagnostics: [], error: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? e) };
  }
  const { source, diagnostics } = parseSource(displayPath(absPath, cwd), bytes);
  return { source, diagnostics };
}

export function loadSpec(absPath: string, cwd: string): LoadResult {
  const file = displayPath(absPath, cwd);
  const read = readSource(absPath, cwd);
  if (read.source === undefined) {
    return {
      spec: undefined,
      diagnostics: [{ code: 'MCPG001', severity: 'error', message: `cannot read spec: ${read.error}`, file, line: 1, column: 1, path: '$' }],
    };
  }
  const diagnostics = [...read.diagnostics];
  const root = read.source;
  const includes: SourceFile[] = [];
  const seen = new Set([resolve(absPath)]);
  const list = (root.value as { include?: unknown } | null | undefined)?.include;
  if (Array.isArray(list)) {
    list.forEach((entry, i) => {
      if (typeof entry !== 'string') return; // the spec-format schema reports the wrong type
      const dir = dirname(absPath);
      const matches = isGlob(entry) ? expandGlob(entry, dir).map((m) => join(dir, m)) : [resolve(dir, entry)];
      if (matches.length === 0) {
        diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG008', `include pattern ${JSON.stringify(entry)} matches no file`));
      }
      for (const match of matches) {
        const abs = resolve(match);
        if (seen.has(abs)) continue;
        seen.add(abs);
        const inc = readSource(abs, cwd);
        if (inc.source === undefined) {
          diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG008', `cannot include ${JSON.stringify(entry)}: ${inc.error}`));
          continue;
        }
        diagnostics.push(...inc.diagnostics);
        if (inc.source.value !== undefined) includes.push(inc.source);
      }
    });
  }
  return { spec: { root, includes }, diagnostics };
}
