// No accessor may be made per request in the runtime (docs/layout.md, "Per-request objects"): V8 keeps
// the accessor of an object literal (`{ get signal() {…} }`) or of Object.defineProperty in old space, so
// whatever its getter's closure reaches — on a request path, the whole request — survives every
// young-generation GC until the next full one. On the fast path that was ~5 KB promoted per tools/call
// and 6 ms scavenges (BENCHMARKS.md). Getters belong on a class's prototype, made once.
// This reads the sources with TypeScript's parser and lists every accessor that is not a class member,
// bar the ALLOWED ones, each made once per server or client, not per request.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const TREES = ['packages/runtime/src', 'packages/runtime-client/src'];

/** `path:line-text` of accessors made once (per server, client, cache), with why that is fine. */
const ALLOWED: Readonly<Record<string, string>> = {
  'packages/runtime/src/server/ops/health.ts:get draining()': 'one health-probe object per server',
  'packages/runtime/src/server/auth/token-cache.ts:get size()': 'one token cache per verifier',
  'packages/runtime/src/server/scale/redis-layer.ts:get isReady()': 'the Redis layer\'s client views, made once per instance (node-redis callers and rate-limiter-flexible read isReady as a property)',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Accessors outside classes: getters/setters in object literals, and Object.defineProperty/ies calls with `get`/`set`. */
function looseAccessors(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) && ts.isObjectLiteralExpression(node.parent)) {
      found.push(`${file}:${node.getText(source).split('\n')[0]!.replace(/\s*\{.*$/, '').replace(/:.*$/, '').trim()}`);
    }
    if (ts.isCallExpression(node) && /^Object\.definePropert(y|ies)$/.test(node.expression.getText(source)) && /\b(get|set)\s*[:(]/.test(node.getText(source))) {
      found.push(`${file}:${node.expression.getText(source)} at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('runtime: no accessor made per request', () => {
  const all = TREES.flatMap(sourceFiles).flatMap(looseAccessors);

  it('finds the allowed ones (the scan works)', () => {
    for (const key of Object.keys(ALLOWED)) expect(all).toContain(key);
  });

  it('has no other accessor outside a class', () => {
    expect(all.filter((a) => !Object.hasOwn(ALLOWED, a))).toEqual([]);
  });
});
