// After tsc: the runtime's own modules as one ES module per entry point (dist/bundle/server.js and
// shared.js, the code they share and what loads on first use in chunks), which package.json's exports
// load under the `node` condition. Node 20 loads ES modules one file at a time with no compile cache, so
// ~40 small files cost a generated server ~35 ms of CPU at every cold start (bench/cold-start.mjs).
// Other runtimes get tsc's files: their bundlers (esbuild for workerd) tree-shake file by file.
// Every package stays external: the SDK is a peer (one copy shared with the application), jose and
// @cfworker/json-schema are ordinary dependencies, @redis/client is an optional peer loaded on use.
// Types stay tsc's (dist/**/*.d.ts); the source maps chain through tsc's to src/.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const dist = resolve(import.meta.dirname, '../dist');
const outdir = join(dist, 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { server: join(dist, 'server/index.js'), shared: join(dist, 'shared/index.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  packages: 'external',
  sourcemap: true,
  sourcesContent: false,
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
});
