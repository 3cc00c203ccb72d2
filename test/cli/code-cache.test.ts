// V8 code caches (src/common/code-cache.ts), as the real CLI runs them: @ts-morph/common's copy and, on
// Node without module.enableCompileCache, ts-morph and its TypeScript (src/emit/typescript-code-cache.ts). The first run writes each cache, the next one reads it and leaves
// it alone, a damaged cache is refused by V8 and rewritten, and the output is the same bytes every time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeHasCompileCache } from '../../src/common/code-cache.js';
import { ROOT, tempDir } from '../support/root.js';

// MCPGEN_LAZY_TYPESCRIPT=0: every run loads the real TypeScript (from the second run on it would be a
// stand-in, src/emit/typescript-on-demand.ts, and its cache would go unread).
function mcpgen(cacheDir: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MCPGEN_CACHE_DIR: cacheDir, MCPGEN_LAZY_TYPESCRIPT: '0' } });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

function generateFresh(cacheDir: string): string {
  const out = tempDir('mcpgen-ts-cache-out-');
  mcpgen(cacheDir, ['generate', join(ROOT, 'specs/weather.yaml'), '--out', out]);
  const dir = join(out, readdirSync(out)[0]!);
  return readdirSync(dir).sort().map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache')).sort();
/** A cache file's name without Node's version, the file's size and mtime. */
const kind = (name: string) => name.replace(new RegExp(`-${process.version.replaceAll('.', '\\.')}-${process.arch}`), '').replace(/-\d+-\d+\.v8cache$/, '');

describe.skipIf(nodeHasCompileCache())('V8 code caches (Node without a compile cache of its own)', { timeout: 120_000 }, () => {
  it('are written by the first run, read by the next, rewritten when damaged; the output never changes', () => {
    const cacheDir = tempDir('mcpgen-ts-cache-');
    const first = generateFresh(cacheDir);
    const names = cacheFiles(cacheDir);
    // ts-morph's 1 MB and its TypeScript (the real one: MCPGEN_LAZY_TYPESCRIPT=0, so no copy of @ts-morph/common).
    expect(names.map(kind)).toEqual(['ts-morph', 'typescript']);
    const name = names.find((n) => n.startsWith('typescript-'));
    expect(name).toMatch(new RegExp(`^typescript-${process.version.replaceAll('.', '\\.')}-${process.arch}-\\d+-\\d+\\.v8cache$`));
    const file = join(cacheDir, name!);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(100_000);
    const bundle = join(cacheDir, names.find((n) => kind(n) === 'ts-morph')!);
    const bundleWritten = statSync(bundle);

    // Accepted by V8: read, not written again.
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);
    expect(statSync(bundle).mtimeMs).toBe(bundleWritten.mtimeMs);

    // Damaged (another V8, a truncated copy): V8 refuses it, the code is compiled as usual, the cache is made anew.
    writeFileSync(file, Buffer.alloc(4096, 7));
    writeFileSync(bundle, Buffer.alloc(4096, 7));
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    expect(statSync(bundle).size).toBeGreaterThan(4096);
    expect(cacheFiles(cacheDir)).toEqual(names);
  });
});
