// The cache folder (node_modules/.cache/mcpgen or MCPGEN_CACHE_DIR: the run record, the schema-check
// record, V8 code caches, precompiled templates, kept values) is never needed for the right output: the
// real CLI gives the same bytes with it read-only, missing (cannot be made), written by two runs at once,
// and filled by another version (every file replaced by one that does not belong to this mcpgen).
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import { runCli } from '../write/support.js';

const SPEC = join(ROOT, 'specs/weather.yaml');

/** Every file under `dir` by relative path, the manifest left out (it names the output folder). */
function tree(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).sort().flatMap((name) => {
    const rel = join(prefix, name);
    if (statSync(join(dir, rel)).isDirectory()) return tree(dir, rel);
    return name.startsWith('.') ? [] : [`${rel}\n${readFileSync(join(dir, rel), 'utf8')}`];
  });
}

/**
 * A full `generate` of the weather spec into a fresh folder; its files. As another user, the spec and the
 * working folder are in that fresh folder too: the clone may live where that user cannot go (a `mktemp -d`
 * folder is 0700), and the test is about the cache folder, not the clone's.
 */
async function generate(cacheDir: string, uid?: number): Promise<string[]> {
  const work = tempDir('mcpgen-cache-out-');
  const out = join(work, 'out');
  let spec = SPEC;
  if (uid !== undefined) {
    chmodSync(work, 0o777);
    // The same path from the working folder as from the clone's root: the generated headers name it.
    spec = join(work, 'specs/weather.yaml');
    mkdirSync(join(work, 'specs'), { mode: 0o755 });
    copyFileSync(SPEC, spec);
  }
  const r = await runCli(['generate', spec, '--out', out], uid === undefined ? ROOT : work, { MCPGEN_CACHE_DIR: cacheDir }, uid);
  expect(r.code, r.stderr).toBe(0);
  return tree(out);
}

const files = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

describe('the cache folder', { timeout: 120_000 }, () => {
  // The files of a run with a fresh cache folder, which that run filled: each test compares with them,
  // and the second one starts from a copy of that folder (one cold run for both, not one each).
  let reference: string[];
  let filled: string;
  beforeAll(async () => {
    filled = join(tempDir(), 'cache');
    reference = await generate(filled);
  }, 120_000);

  it('missing and impossible to make, read-only, or written by two runs at once: the same files', async () => {
    // Missing: its path runs through a file, so it can be neither read nor made.
    const blocker = join(tempDir(), 'a-file');
    writeFileSync(blocker, '');
    expect(await generate(join(blocker, 'cache'))).toEqual(reference);

    // Two cold runs at once on one folder, then a run that reads what they left: no half-written file read.
    const shared = join(tempDir(), 'cache');
    const both = await Promise.all([generate(shared), generate(shared)]);
    expect(both).toEqual([reference, reference]);
    expect(files(shared).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await generate(shared)).toEqual(reference);

    // Read-only (root writes anywhere: as `nobody` when root), filled by the runs above.
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    chmodSync(join(shared, '..'), 0o755);
    for (const f of [shared, ...files(shared)]) chmodSync(f, statSync(f).isDirectory() ? 0o555 : 0o444);
    try {
      expect(await generate(shared, uid)).toEqual(reference);
    } finally {
      for (const f of [shared, ...files(shared)]) chmodSync(f, statSync(f).isDirectory() ? 0o755 : 0o644);
    }
  });

  it('filled by another mcpgen or another dependency version: every file replaced, the same files', async () => {
    const cacheDir = join(tempDir(), 'cache');
    cpSync(filled, cacheDir, { recursive: true });
    // What a file of the same name may hold after an upgrade (or a damaged disk): JSON of another shape,
    // bytes V8 refuses, a module cut short. Each must be refused or replaced, never believed.
    const kept = files(cacheDir);
    expect(kept.length).toBeGreaterThan(0);
    for (const f of kept) {
      if (f.endsWith('.json')) writeFileSync(f, JSON.stringify({ version: '0.0.0-other', files: [], names: ['x'], values: {} }));
      else if (f.endsWith('.cjs')) writeFileSync(f, readFileSync(f, 'utf8').slice(0, 40));
      else writeFileSync(f, Buffer.alloc(4096, 7));
    }
    expect(await generate(cacheDir)).toEqual(reference);
    expect(await generate(cacheDir)).toEqual(reference);
  });
});
