// The import graph of a source tree, read from its import statements (static, re-exports, `import()`),
// shared by the runtime's layer test and the generator's.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Graph = ReadonlyMap<string, readonly string[]>;

export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every module a file names: static imports and re-exports, `import()` and `typeof import()`. */
function specifiers(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  // Statements at the start of a line only: emitters hold `from '…'` inside strings of generated code.
  const statements = [...text.matchAll(/^(?:import|export)\b[^;'"]*?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const dynamic = [...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return [...statements, ...dynamic];
}

/** Relative imports as repo paths of .ts files; package imports left as written. */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((f) => [f, specifiers(root, f).map((s) => (s.startsWith('.') ? relative(root, resolve(root, dirname(f), s)).replace(/\.js$/, '.ts') : s))]));
}

/** One file of each import cycle found (depth-first, over relative imports only). */
export function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, path: string[]): void => {
    state.set(f, 'open');
    for (const t of graph.get(f) ?? []) {
      if (!graph.has(t)) continue;
      if (state.get(t) === 'open') found.push([...path.slice(path.indexOf(t)), t]);
      else if (state.get(t) === undefined) visit(t, [...path, t]);
    }
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (state.get(f) === undefined) visit(f, [f]);
  return found;
}

