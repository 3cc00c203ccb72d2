// The shape of the runtime packages (issue 26), read from their imports: each folder is one concern and
// imports only the folders below it, the packages import each other in one direction, and no file
// imports itself back through others. A new file goes into a folder (only index.ts sits at the top).
// Files stay under MAX_FILE_LINES and functions under MAX_FUNCTION_LINES, bar the SIZE_ALLOWED list.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, sourceFiles, type Graph } from '../support/import-graph.js';

const root = resolve(import.meta.dirname, '../..');

/** Bottom first: a folder may import its own files and the folders before it, never one after it. */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  'packages/runtime/src/server': ['core', 'scale', 'tasks', 'auth', 'extensions', 'ops', 'dispatch', 'transport', 'entry'],
  'packages/runtime-client/src': ['core', 'auth', 'transport', 'extensions', 'tasks', 'client', 'bridges'],
};

/** Package specifiers a source tree must not import (prefix match), and why. */
const FORBIDDEN: readonly { readonly tree: string; readonly prefix: string; readonly why: string }[] = [
  { tree: 'packages/runtime/src', prefix: '@mcpgen/runtime-client', why: 'the server runtime never loads the client runtime' },
  { tree: 'packages/runtime/src', prefix: '@modelcontextprotocol/client', why: 'a deployed server installs no client SDK' },
  { tree: 'packages/runtime/src/shared', prefix: '@modelcontextprotocol/', why: 'shared code is loaded by the generator and clients too' },
  { tree: 'packages/runtime/src/shared', prefix: '../server', why: 'shared is below server' },
  { tree: 'packages/runtime-client/src', prefix: '@mcpgen/runtime/server', why: 'clients use only @mcpgen/runtime/shared' },
  { tree: 'packages/runtime-client/src', prefix: '@modelcontextprotocol/server', why: 'a client installs no server SDK' },
  { tree: 'src', prefix: '@mcpgen/runtime/server', why: 'the generator uses only the runtime\'s shared subpaths' },
  { tree: 'src', prefix: '@mcpgen/runtime-client', why: 'the generator does not load the client runtime' },
];

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
/** Files (`path`) or functions (`path:name`) allowed past the limits, each with the reason. Empty: none is. */
const SIZE_ALLOWED: Readonly<Record<string, string>> = {};

/** Imports that run upward (a folder importing a later one) or that leave a file outside every folder. */
export function layerViolations(graph: Graph, base: string, layers: readonly string[]): string[] {
  const rank = (file: string): number | 'root' | undefined => {
    const rest = relative(base, file);
    if (rest.startsWith('..')) return undefined;
    const parts = rest.split('/');
    if (parts.length === 1) return 'root';
    const i = layers.indexOf(parts[0]!);
    return i === -1 ? -1 : i;
  };
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = rank(file);
    if (from === undefined) continue;
    if (from === -1 || (from === 'root' && !file.endsWith('/index.ts'))) out.push(`${file}: not in one of ${layers.join(', ')}`);
    if (from === 'root' || from === -1) continue;
    for (const t of targets) {
      const to = rank(t);
      if (to === undefined) continue;
      if (to === 'root' || to > from) out.push(`${file} imports ${t}: ${layers[from]}/ must not import ${to === 'root' ? 'index.ts' : `${layers[to]}/`}`);
    }
  }
  return out;
}

/** Files longer than MAX_FILE_LINES and functions (of any kind, by their full extent) longer than MAX_FUNCTION_LINES. */
export function oversized(file: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n').length;
  if (lines > MAX_FILE_LINES) out.push(`${file}: ${lines} lines (limit ${MAX_FILE_LINES})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const length = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
      const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : `(line ${first + 1})`;
      if (length > MAX_FUNCTION_LINES) out.push(`${file}:${name}: ${length} lines (limit ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const runtimeFiles = [...sourceFiles(root, 'packages/runtime/src'), ...sourceFiles(root, 'packages/runtime-client/src')];
const graph = importGraph(root, runtimeFiles);

describe('runtime layers', () => {
  for (const [base, layers] of Object.entries(LAYERS)) {
    it(`${base}: each folder imports only the folders below it (${layers.join(' < ')})`, () => {
      expect(layerViolations(graph, base, layers)).toEqual([]);
    });
  }

  it('has no import cycles between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('packages import each other in one direction (generator → runtime/shared ← runtime-client)', () => {
    const all = importGraph(root, [...runtimeFiles, ...sourceFiles(root, 'src')]);
    const bad = [...all].flatMap(([file, targets]) =>
      FORBIDDEN.filter((r) => file.startsWith(`${r.tree}/`)).flatMap((r) =>
        targets.filter((t) => (r.prefix.startsWith('.') ? t.startsWith(relative(root, resolve(root, r.tree, r.prefix))) : t.startsWith(r.prefix))).map((t) => `${file} imports ${t}: ${r.why}`),
      ),
    );
    expect(bad).toEqual([]);
  });

  it(`keeps files under ${MAX_FILE_LINES} lines and functions under ${MAX_FUNCTION_LINES} (allowed: ${Object.keys(SIZE_ALLOWED).length})`, () => {
    const found = runtimeFiles.flatMap((f) => oversized(f, readFileSync(join(root, f), 'utf8')));
    expect(found.filter((line) => !Object.keys(SIZE_ALLOWED).some((k) => line.startsWith(`${k}:`)))).toEqual([]);
    // An allowance that no longer matches anything is dropped, so the list only shrinks.
    expect(Object.keys(SIZE_ALLOWED).filter((k) => !found.some((line) => line.startsWith(`${k}:`)))).toEqual([]);
  });

  it('reads every kind of import the runtime uses (a missed one would hide an arrow)', () => {
    expect(graph.get('packages/runtime/src/server/auth/jwt-verifier.ts')).toContain('packages/runtime/src/server/auth/jose-calls.ts'); // import()
    expect(graph.get('packages/runtime/src/server/index.ts')).toContain('packages/runtime/src/server/dispatch/create-server.ts'); // export … from
  });
});

describe('the checks themselves fail on a bad shape', () => {
  const base = 'p/src';
  const layers = ['core', 'auth', 'transport'];
  it('flags a lower folder importing a higher one, and a file outside every folder', () => {
    const g = new Map([
      ['p/src/core/a.ts', ['p/src/transport/b.ts']],
      ['p/src/transport/b.ts', ['p/src/core/a.ts', '@scope/pkg']],
      ['p/src/loose.ts', []],
      ['p/src/index.ts', ['p/src/transport/b.ts']],
    ]);
    expect(layerViolations(g, base, layers)).toEqual(['p/src/core/a.ts imports p/src/transport/b.ts: core/ must not import transport/', 'p/src/loose.ts: not in one of core, auth, transport']);
  });
  it('flags a long file and a long function, arrow functions and methods too', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function short() {\n${body(10)}\n}\nconst long = () => {\n${body(MAX_FUNCTION_LINES)}\n};\nclass C {\n  m() {\n${body(MAX_FUNCTION_LINES)}\n  }\n}\n${'\n'.repeat(MAX_FILE_LINES)}`;
    expect(oversized('x.ts', text)).toEqual([
      `x.ts: ${text.split('\n').length} lines (limit ${MAX_FILE_LINES})`,
      `x.ts:(line 13): ${MAX_FUNCTION_LINES + 2} lines (limit ${MAX_FUNCTION_LINES})`,
      `x.ts:m: ${MAX_FUNCTION_LINES + 2} lines (limit ${MAX_FUNCTION_LINES})`,
    ]);
  });
  it('finds a cycle of two files (the old auth.ts ↔ jwt-verifier.ts)', () => {
    const g = new Map([
      ['auth.ts', ['jwt-verifier.ts']],
      ['jwt-verifier.ts', ['auth.ts']],
    ]);
    expect(cycles(g)).toEqual([['auth.ts', 'jwt-verifier.ts', 'auth.ts']]);
  });
});
