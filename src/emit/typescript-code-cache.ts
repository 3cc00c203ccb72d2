// Loading ts-morph means compiling @ts-morph/common's bundled TypeScript (9 MB of JavaScript): about
// 0.25 s of every full `generate` on Node 20, before any code is emitted. Node ≥ 22.1 keeps compiled code
// between runs itself (module.enableCompileCache, called by bin/mcpgen.js); on older Node this module does
// the same for that one file: it compiles it with V8's code cache from mcpgen's cache folder and puts
// the module in require's cache, so ts-morph's own `require('./typescript')` finds it loaded.
// (v8-compile-cache was measured first and gained nothing: it stores the cache made before the module runs,
// which holds only the top-level code.)
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { mcpgenCacheDir } from '../common/cache-dir.js';

interface CjsModule {
  exports: unknown;
  filename: string;
  loaded: boolean;
  paths: string[];
}
type ModuleClass = (new (id: string, parent?: unknown) => CjsModule) & {
  wrap(source: string): string;
  _cache: Record<string, CjsModule>;
  _nodeModulePaths(dir: string): string[];
};

/**
 * Load @ts-morph/common's TypeScript through a V8 code cache when this Node has no compile cache of its
 * own. Never throws for the cache's sake: anything unusual leaves the normal `require` to load it.
 */
export function preloadTypeScript(from: string): void {
  if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return;
  const Module = module.Module as unknown as ModuleClass;
  let file: string;
  try {
    const tsMorph = createRequire(from).resolve('ts-morph');
    file = createRequire(tsMorph).resolve('@ts-morph/common/dist/typescript.js');
  } catch {
    return;
  }
  if (Module._cache[file] !== undefined) return;
  const stat = statSync(file);
  // The name says which file it was made from: V8 itself only checks the source's length and its own flags.
  // Next to the run record: the project's node_modules/.cache/mcpgen (the CLI runs in the project).
  const cacheDir = mcpgenCacheDir(process.cwd());
  if (cacheDir === undefined) return;
  const cacheFile = join(cacheDir, `typescript-${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const source = readFileSync(file, 'utf8');
  const script = new Script(Module.wrap(source), { filename: file, ...(cached !== undefined ? { cachedData: cached } : {}) });
  const m = new Module(file, undefined);
  m.filename = file;
  m.paths = Module._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: CjsModule, filename: string, dirname: string) => void;
  Module._cache[file] = m;
  try {
    wrapper.call(m.exports, m.exports, createRequire(file), m, file, dirname(file));
  } catch (e) {
    delete Module._cache[file]; // as require does: a module that threw is not cached
    throw e;
  }
  m.loaded = true;
  if (cached === undefined || script.cachedDataRejected === true) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile); // whole or absent: a concurrent run never reads half a cache
    } catch {
      // a read-only or full disk only costs the next run the compile
    }
  }
}
