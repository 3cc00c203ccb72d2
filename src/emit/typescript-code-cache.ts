// Loading ts-morph means compiling @ts-morph/common's bundled TypeScript (9 MB of JavaScript): about
// 0.25 s of every full `generate` on Node 20, before any code is emitted. Node ≥ 22.1 keeps compiled code
// between runs itself (module.enableCompileCache, called by bin/mcpgen.js); on older Node this module does
// the same for that file and for ts-morph's own 1 MB: it compiles each with V8's code cache from mcpgen's
// cache folder and puts the module in require's cache, so the usual `require`s find them loaded.
// (v8-compile-cache was measured first and gained nothing: it stores the cache made before the module runs,
// which holds only the top-level code.)
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
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
 * Load @ts-morph/common's TypeScript, then ts-morph itself, through V8 code caches when this Node has no
 * compile cache of its own. Never throws for the cache's sake: anything unusual leaves the normal
 * `require` to load them.
 */
export function preloadTypeScript(from: string): void {
  if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return;
  let files: string[];
  try {
    const tsMorph = createRequire(from).resolve('ts-morph');
    files = [createRequire(tsMorph).resolve('@ts-morph/common/dist/typescript.js'), tsMorph];
  } catch {
    return;
  }
  // Next to the run record: the project's node_modules/.cache/mcpgen (the CLI runs in the project).
  const cacheDir = mcpgenCacheDir(process.cwd());
  if (cacheDir === undefined) return;
  // In this order: ts-morph's own require of TypeScript (through @ts-morph/common) then finds it loaded.
  for (const file of files) loadWithCodeCache(file, cacheDir);
}

/** Require `file` (a CommonJS module) compiled with the V8 code cache kept for it in `cacheDir`. */
function loadWithCodeCache(file: string, cacheDir: string): void {
  const Module = module.Module as unknown as ModuleClass;
  if (Module._cache[file] !== undefined) return;
  const stat = statSync(file);
  // The name says which file it was made from: V8 itself only checks the source's length and its own flags.
  const name = basename(file, '.js');
  const cacheFile = join(cacheDir, `${name}-${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const source = readSource(file);
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

/**
 * The module's text. TypeScript's 9 MB are ASCII: read as Latin-1 (the same string then) they cost
 * 20 ms against 100 ms through the UTF-8 decoder on Node 20.
 */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
