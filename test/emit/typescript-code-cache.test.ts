// ts-morph and its TypeScript compiled through V8 code caches on Node without module.enableCompileCache
// (src/emit/typescript-code-cache.ts), as the real CLI runs it: the first full run writes the cache, the
// next one reads it and leaves it alone, a damaged cache is refused by V8 and rewritten, and the output is
// the same bytes every time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

const nodeHasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function generateFresh(cacheDir: string): string {
  const out = tempDir('mcpgen-ts-cache-out-');
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', join(ROOT, 'specs/weather.yaml'), '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MCPGEN_CACHE_DIR: cacheDir },
  });
  expect(r.status, r.stderr).toBe(0);
  const dir = join(out, readdirSync(out)[0]!);
  return readdirSync(dir).sort().map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache')).sort();

describe.skipIf(nodeHasCompileCache)('TypeScript code cache (Node without a compile cache of its own)', { timeout: 120_000 }, () => {
  it('is written by the first full run, read by the next, rewritten when damaged; the output never changes', () => {
    const cacheDir = tempDir('mcpgen-ts-cache-');
    const first = generateFresh(cacheDir);
    const names = cacheFiles(cacheDir);
    // ts-morph's 1 MB has its cache too.
    expect(names.map((n) => n.replace(/-v\d.*$/, ''))).toEqual(['ts-morph', 'typescript']);
    const name = names.find((n) => n.startsWith('typescript-'));
    expect(name).toMatch(new RegExp(`^typescript-${process.version.replaceAll('.', '\\.')}-${process.arch}-\\d+-\\d+\\.v8cache$`));
    const file = join(cacheDir, name!);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(100_000);

    // Accepted by V8: read, not written again.
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    // Damaged (another V8, a truncated copy): V8 refuses it, TypeScript is compiled as usual, the cache is made anew.
    writeFileSync(file, Buffer.alloc(4096, 7));
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    expect(cacheFiles(cacheDir)).toEqual(names);
  });
});
