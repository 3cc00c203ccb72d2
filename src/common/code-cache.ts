// Requiring a CommonJS file through V8's code cache, kept in mcpgen's cache folder: what Node ≥ 22.1
// does itself (module.enableCompileCache, turned on by bin/mcpgen.js), for Node 20: ts-morph and its
// TypeScript (emit/typescript-code-cache.ts); on every Node, @ts-morph/common's copy
// (emit/ts-morph-common-printer.ts), which Node's cache does not hold. Nothing here ever fails a run: a cache that cannot be read, is
// refused by V8 or cannot be written only costs the compile it would have saved.
import { isAscii } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
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
  /** Writes the cache if V8 had none it accepted. */
  save(): void;
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
  const cacheFile = `${stem}.v8cache`;
  const cached = readIfAny(cacheFile);
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
    save() {
      if (saved || accepted) return;
      saved = true;
      try {
        writeCacheFile(cacheFile, script.createCachedData());
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
