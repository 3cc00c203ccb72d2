// A fresh mcpgen cache folder (MCPGEN_CACHE_DIR, src/common/cache-dir.ts) for each test of the file that
// calls this, removed after it, and the variable put back as it was: the records and caches one test
// leaves must not make another one's run a shortcut.
import { rmSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
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
