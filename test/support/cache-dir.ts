// A fresh mcpgen cache folder (MCPGEN_CACHE_DIR, src/common/cache-dir.ts) for each test of the file that
// calls this, removed after it, and the variable put back as it was: the records and caches one test
// leaves must not make another one's run a shortcut. Or one folder for a file's spawned CLI runs.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { tempDir } from './root.js';

/** Registers the hooks; call the returned function inside a test for that test's folder. */
export function freshCacheDirPerTest(): () => string {
  let cacheDir = '';
  let before: string | undefined;
  beforeEach(() => {
    before = process.env.MCPGEN_CACHE_DIR;
    cacheDir = tempDir();
    process.env.MCPGEN_CACHE_DIR = cacheDir;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.MCPGEN_CACHE_DIR;
    else process.env.MCPGEN_CACHE_DIR = before;
    rmSync(cacheDir, { recursive: true, force: true });
  });
  return () => cacheDir;
}

/**
 * One cache folder for the `bin/mcpgen.js` processes a file spawns in temporary projects, removed after
 * the file: a project under the system's temp folder has no node_modules above it, so no cache folder
 * (src/common/cache-dir.ts), and every such run loaded TypeScript and ts-morph cold (a weather + sql
 * `generate`: 1.1 s of CPU; 0.55 s with a filled folder, as a user's project has one). Its run records are
 * keyed by project folder, so one run never answers for another project; the folder never changes the
 * output (test/cli/cache-safety.test.ts). Pass the returned env to the spawned runs.
 */
export function cacheDirPerFile(): { readonly MCPGEN_CACHE_DIR: string } {
  const env = { MCPGEN_CACHE_DIR: join(tempDir('mcpgen-cache-'), 'cache') };
  afterAll(() => rmSync(dirname(env.MCPGEN_CACHE_DIR), { recursive: true, force: true }));
  return env;
}
