// Where mcpgen keeps what it may lose without harm (the run record, V8's code cache of TypeScript):
// $MCPGEN_CACHE_DIR, else node_modules/.cache/mcpgen in the nearest node_modules above `from` (the place
// build tools share), else nowhere.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function mcpgenCacheDir(from: string): string | undefined {
  const dir = process.env.MCPGEN_CACHE_DIR;
  if (dir !== undefined && dir !== '') return dir;
  for (let d = resolve(from); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return join(d, 'node_modules', '.cache', 'mcpgen');
    if (dirname(d) === d) return undefined;
  }
}
