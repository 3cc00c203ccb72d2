// V8 code caches (src/common/code-cache.ts), as the real CLI runs them: the CLI bundles on every Node
// (bin/mcpgen.js, saved after the command ran) and, on Node without module.enableCompileCache, ts-morph and its TypeScript
// (src/emit/typescript-code-cache.ts). The first run writes each cache, the next one reads it and leaves
// it alone, a damaged cache is refused by V8 and rewritten, and the output is the same bytes every time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeHasCompileCache } from '../../src/common/code-cache.js';
import { ROOT, tempDir } from '../helpers.js';

function mcpgen(cacheDir: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MCPGEN_CACHE_DIR: cacheDir } });
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

describe('the CLI bundle through V8\'s code cache, on every Node', { timeout: 120_000 }, () => {
  it('is saved after the first run with the functions it compiled, then read and left alone', () => {
    // On Node ≥ 22.1 too: Node's own compile cache holds only the bundle's top level (src/cli/code-cache-entry.ts).
    const cacheDir = tempDir('mcpgen-cli-cache-');
    const first = generateFresh(cacheDir);
    const bundle = cacheFiles(cacheDir).find((n) => kind(n) === 'cli-bundle');
    expect(bundle).toBeDefined();
    const written = statSync(join(cacheDir, bundle!));
    expect(written.size).toBeGreaterThan(100_000);
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(join(cacheDir, bundle!)).mtimeMs).toBe(written.mtimeMs);
  });

  it('from a run that answered "output is current" is kept as partial, and replaced by the next full run', () => {
    const cacheDir = tempDir('mcpgen-cli-cache-');
    const out = tempDir('mcpgen-cli-cache-out-');
    const generate = () => mcpgen(cacheDir, ['generate', join(ROOT, 'specs/weather.yaml'), '--out', out]);
    const bundles = () => cacheFiles(cacheDir).filter((n) => n.startsWith('cli-bundle-'));
    generate();
    // The run record stays (it makes the next run a current one); the code cache goes.
    for (const n of bundles()) rmSync(join(cacheDir, n));
    expect(generate()).toContain('0 file(s)');
    const partial = bundles();
    expect(partial).toHaveLength(1);
    expect(partial[0]).toMatch(/\.partial\.v8cache$/);
    const partialSize = statSync(join(cacheDir, partial[0]!)).size;
    // Another current run reads the partial cache and leaves it alone.
    generate();
    expect(bundles()).toEqual(partial);

    // A full run (the output gone) compiles the pipeline: its cache replaces the partial one.
    rmSync(out, { recursive: true, force: true });
    generate();
    const complete = bundles();
    expect(complete).toHaveLength(1);
    expect(complete[0]).not.toMatch(/partial/);
    const completeFile = statSync(join(cacheDir, complete[0]!));
    expect(completeFile.size).toBeGreaterThan(partialSize + 100_000);
    // From then on a current run uses it and writes nothing.
    generate();
    expect(bundles()).toEqual(complete);
    expect(statSync(join(cacheDir, complete[0]!)).mtimeMs).toBe(completeFile.mtimeMs);
  });
});

describe.skipIf(nodeHasCompileCache())('V8 code caches (Node without a compile cache of its own)', { timeout: 120_000 }, () => {
  it('are written by the first run, read by the next, rewritten when damaged; the output never changes', () => {
    const cacheDir = tempDir('mcpgen-ts-cache-');
    const first = generateFresh(cacheDir);
    const names = cacheFiles(cacheDir);
    // The CLI bundle, @ts-morph/common's copy without its lib texts, ts-morph's 1 MB and its TypeScript.
    expect(names.map(kind).map((k) => k.replace(/-printer-[0-9a-f]+$/, '-printer'))).toEqual(['cli-bundle', 'ts-morph-common-printer', 'ts-morph', 'typescript']);
    const name = names.find((n) => n.startsWith('typescript-'));
    expect(name).toMatch(new RegExp(`^typescript-${process.version.replaceAll('.', '\\.')}-${process.arch}-\\d+-\\d+\\.v8cache$`));
    const file = join(cacheDir, name!);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(100_000);
    const bundle = join(cacheDir, names.find((n) => n.startsWith('cli-bundle-'))!);
    const bundleWritten = statSync(bundle);
    // Saved after the run: it holds the functions the run compiled, not only the bundle's top level.
    expect(bundleWritten.size).toBeGreaterThan(100_000);

    // Accepted by V8: read, not written again.
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);
    expect(statSync(bundle).mtimeMs).toBe(bundleWritten.mtimeMs);

    // Damaged (another V8, a truncated copy): V8 refuses it, the code is compiled as usual, the cache is made anew.
    writeFileSync(file, Buffer.alloc(4096, 7));
    writeFileSync(bundle, Buffer.alloc(4096, 7));
    expect(generateFresh(cacheDir)).toBe(first);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    expect(statSync(bundle).size).toBeGreaterThan(100_000);
    expect(cacheFiles(cacheDir)).toEqual(names);
  });

  it('leaves `import` its import(): import openapi loads its parser, run after run', () => {
    // The bundle's import('@apidevtools/swagger-parser') failed ("A dynamic import callback was not
    // specified") once the bundle came from the code cache, that is from the second run in any folder
    // with a node_modules: on Node 20 a cached vm.Script cannot import(). `import` is required as usual.
    const cacheDir = tempDir('mcpgen-import-cache-');
    const out = tempDir('mcpgen-import-out-');
    const petstore = join(ROOT, 'test/fixtures/openapi/oas-examples/openapi-3.0-petstore.json');
    for (const run of [1, 2]) {
      const spec = join(out, `petstore-${run}.yaml`);
      mcpgen(cacheDir, ['import', 'openapi', petstore, '--out', spec, '--handlers', join(out, `handlers-${run}.ts`), '--name', 'petstore']);
      expect(readFileSync(spec, 'utf8')).toContain('name: petstore');
    }
    mcpgen(cacheDir, ['generate', join(ROOT, 'specs/weather.yaml'), '--out', out]); // the cache is there
    for (const run of [3, 4]) mcpgen(cacheDir, ['import', 'openapi', petstore, '--out', join(out, `petstore-${run}.yaml`), '--handlers', join(out, `handlers-${run}.ts`), '--name', 'petstore']);
  });
});
