// Where mcpgen keeps what it may lose without harm (the run record, V8's code cache of TypeScript):
// $MCPGEN_CACHE_DIR, else node_modules/.cache/mcpgen in the nearest node_modules above `from` (the place
// build tools share), else nowhere.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function mcpgenCacheDir(from: string): string | undefined {
  const dir = process.env.MCPGEN_CACHE_DIR;
  if (dir !== undefined && dir !== '') return dir;
  for (let d = resolve(from); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return join(d, 'node_modules', '.cache', 'mcpgen');
    if (dirname(d) === d) return undefined;
  }
}

/**
 * Write a file of the cache folder whole or not at all: beside it first, then renamed into place, so a
 * concurrent run never reads half of one. Throws as the file system does; each caller decides what a
 * failure costs (usually nothing but the next run's shortcut).
 */
export function writeCacheFile(file: string, data: string | NodeJS.ArrayBufferView): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  // The old file is removed first: ext4 flushes a file renamed over another to disk (auto_da_alloc),
  // 1–2 ms of waiting per write, durability a cache does not need. A run reading in between finds no
  // file, which means what it always means here: no shortcut.
  rmSync(file, { force: true });
  renameSync(tmp, file);
}
