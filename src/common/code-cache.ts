// Requiring a CommonJS file through V8's code cache, kept in mcpgen's cache folder: what Node ≥ 22.1
// does itself (module.enableCompileCache, turned on by bin/mcpgen.js), for Node 20, and, saved after the
// code ran, with the functions it compiled, which Node's own cache leaves out. Used for the CLI's own
// bundles on every Node (bin/mcpgen.js, through dist/cli/code-cache.cjs), for ts-morph and its TypeScript
// on Node 20 (emit/typescript-code-cache.ts), for @ts-morph/common's copy (emit/ts-morph-common-printer.ts). Nothing here ever fails a run: a cache that cannot be read, is
// refused by V8 or cannot be written only costs the compile it would have saved.
import { isAscii } from 'node:buffer';
import { readFileSync, rmSync, statSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeCacheFile } from './cache-dir.js';

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

/** Whether this Node keeps compiled code between runs itself (then there is nothing to do here). */
export function nodeHasCompileCache(): boolean {
  return typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
}

export interface CachedModule {
  readonly exports: unknown;
  /**
   * Writes the cache if V8 had none it accepted. Called after the module has run for a while, the
   * cache also holds the functions compiled meanwhile, so the next run compiles almost nothing.
   * `complete: false` says this run left most of the module unrun (the CLI answering "output is
   * current" without its pipeline): its cache is kept apart, used only until a complete run replaces it.
   * Else the first run after a build decides for good: a cache from a current run made every later
   * full `generate` compile the pipeline again (a 10-tool generate 0.16 -> 0.19 s, 2026-12-06).
   */
  save(complete?: boolean): void;
}

/**
 * Require `file` (a CommonJS module) compiled with the V8 code cache kept for it in `cacheDir`, and put
 * it in require's cache. `variant` names what else decides V8's acceptance,
 * so that such runs keep a cache of their own instead of refusing and rewriting one.
 * `sourceFile`, when given, holds the text run as `file` (a copy of it made by mcpgen; `variant` names it).
 */
export function requireWithCodeCache(file: string, cacheDir: string, variant = '', sourceFile = file): CachedModule {
  const Module = module.Module as unknown as ModuleClass;
  const loaded = Module._cache[file];
  if (loaded !== undefined) return { exports: loaded.exports, save: () => {} };
  const stat = statSync(file);
  // The name says which file it was made from: V8 itself only checks the source's length and its own flags.
  const name = basename(file).replace(/\.c?js$/, '');
  const stem = join(cacheDir, `${name}-${process.version}-${process.arch}${variant ? `-${variant}` : ''}-${stat.size}-${Math.trunc(stat.mtimeMs)}`);
  const cacheFile = { complete: `${stem}.v8cache`, partial: `${stem}.partial.v8cache` };
  let from: keyof typeof cacheFile = 'complete';
  let cached = readIfAny(cacheFile.complete);
  if (cached === undefined) {
    from = 'partial';
    cached = readIfAny(cacheFile.partial);
  }
  const script = new Script(Module.wrap(readSource(sourceFile)), { filename: file, ...(cached !== undefined ? { cachedData: cached } : {}) });
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
  const accepted = cached !== undefined && script.cachedDataRejected !== true;
  let saved = false;
  return {
    exports: m.exports,
    save(complete = true) {
      if (saved || (accepted && (from === 'complete' || !complete))) return;
      saved = true;
      try {
        writeCacheFile(complete ? cacheFile.complete : cacheFile.partial, script.createCachedData());
        if (complete) rmSync(cacheFile.partial, { force: true });
        else if (from === 'complete' && cached !== undefined) rmSync(cacheFile.complete, { force: true }); // refused by V8: let the partial one be read
      } catch {
        // a read-only or full disk only costs the next run the compile
      }
    },
  };
}

function readIfAny(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
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
