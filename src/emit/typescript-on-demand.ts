// ts-morph's printer, all the emitters use, needs almost nothing of the TypeScript @ts-morph/common
// bundles: loading ts-morph reads `ts.SyntaxKind`, `ts.version` and `ts.ScriptTarget` and makes a scanner
// that its printer runs over each item of a comma-separated list; printing reads nothing more. Yet
// loading that TypeScript is 9 MB of JavaScript to read, compile and run: ~0.14 s of a 10-tool `generate`
// on Node 20 with its code cache, more on Node 22.
//
// So, once a run has loaded the real TypeScript and kept what loading ts-morph reads (its export names,
// those enums and its version) in mcpgen's cache folder, the next runs put a stand-in in require's cache
// under TypeScript's file name: its enums and version are those copies, `createScanner` returns
// scanner-stand-in.ts's scanner (it answers ts-morph's one question itself for simple texts), and every
// other export loads the real TypeScript (through `loadReal`) the moment it is read, and from then on is
// the real one's. The output cannot differ: whatever the copies cannot answer, the real TypeScript does.
// MCPGEN_SPEED_OFF=typescript-stand-in (or the older MCPGEN_LAZY_TYPESCRIPT=0) loads it up front as before.
import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { writeCacheFile } from '../common/cache-dir.js';
import { scannerStandIn } from './scanner-stand-in.js';
import { speedOff } from '../common/speed-off.js';

/** What a stand-in needs of one TypeScript file: kept in the cache folder, made from the real module. */
interface Exports {
  readonly names: readonly string[];
  readonly version: string;
  readonly enums: Readonly<Record<string, unknown>>;
}

/** Plain data read while ts-morph loads: copied as they are (JSON keeps an enum's both directions). */
const COPIED_ENUMS = ['SyntaxKind', 'ScriptTarget'] as const;

interface CjsModule {
  id: string;
  exports: unknown;
  filename: string;
  loaded: boolean;
}
type ModuleClass = (new (id: string, parent?: unknown) => CjsModule) & { _cache: Record<string, CjsModule | undefined> };

/** Whether runs may use the stand-in (MCPGEN_SPEED_OFF=typescript-stand-in or MCPGEN_LAZY_TYPESCRIPT=0 says no). */
export function typescriptOnDemand(): boolean {
  return process.env.MCPGEN_LAZY_TYPESCRIPT !== '0' && !speedOff('typescript-stand-in');
}

/** The id the stand-in's entry in require's cache has (tests look for it). */
export const STAND_IN_ID = 'mcpgen:typescript-on-demand';

/** The cache file of what a stand-in for `tsFile` needs; named by the file's size and mtime, as the code caches are. */
function exportsFile(tsFile: string, cacheDir: string): string {
  const stat = statSync(tsFile);
  return join(cacheDir, `typescript-exports-${stat.size}-${Math.trunc(stat.mtimeMs)}.json`);
}

/**
 * Put a stand-in for `tsFile` in require's cache when the cache folder holds what it needs; false when it
 * does not (the caller loads the real module, then calls `keepExports`). `loadReal` loads the real module
 * with no stand-in in the way and returns its exports.
 */
export function installStandIn(tsFile: string, cacheDir: string, loadReal: () => unknown): boolean {
  let kept: Exports;
  try {
    kept = JSON.parse(readFileSync(exportsFile(tsFile, cacheDir), 'utf8')) as Exports;
    if (!Array.isArray(kept.names) || typeof kept.version !== 'string' || COPIED_ENUMS.some((e) => typeof kept.enums?.[e] !== 'object')) return false;
  } catch {
    return false;
  }
  const Module = module.Module as unknown as ModuleClass;
  let real: Record<string, unknown> | undefined;
  const theReal = (): Record<string, unknown> => {
    if (real === undefined) {
      if (Module._cache[tsFile] === standIn) delete Module._cache[tsFile];
      real = loadReal() as Record<string, unknown>;
    }
    return real;
  };
  const syntaxKind = kept.enums.SyntaxKind as Parameters<typeof scannerStandIn>[0];
  const exports = dictionaryObject();
  for (const name of kept.names) {
    const copy = name === 'version' ? kept.version : kept.enums[name];
    const get =
      copy !== undefined
        ? () => (real === undefined ? copy : real[name])
        : name === 'createScanner' && !speedOff('scanner-stand-in')
          ? () => (real === undefined ? (...args: unknown[]) => scannerStandIn(syntaxKind, () => (theReal().createScanner as (...a: unknown[]) => object)(...args)) : real[name])
          : () => theReal()[name];
    Object.defineProperty(exports, name, { enumerable: true, get });
  }
  const standIn = new Module(STAND_IN_ID, undefined);
  standIn.filename = tsFile;
  standIn.exports = exports;
  standIn.loaded = true;
  Module._cache[tsFile] = standIn;
  return true;
}

/**
 * An empty object V8 keeps as a hash table from the start. Defined one by one on a plain object, each of
 * TypeScript's ~2,200 exports made V8 copy the object's growing property list anew (a new hidden class
 * per property): ~15 ms of a 10-tool `generate` on Node 22, against ~1 ms this way. Deleting a property
 * other than the last added is what turns an object into a hash table; the result is an ordinary object
 * (same prototype, same key order).
 */
function dictionaryObject(): Record<string, unknown> {
  const o: Record<string, unknown> = { a: 0, b: 0 };
  delete o.a;
  delete o.b;
  return o;
}

/** After the real module loaded: keep what a stand-in needs next time (whole or not at all; never fails a run). */
export function keepExports(tsFile: string, cacheDir: string, ts: Record<string, unknown>): void {
  try {
    const file = exportsFile(tsFile, cacheDir);
    const kept: Exports = { names: Object.keys(ts), version: String(ts.version), enums: Object.fromEntries(COPIED_ENUMS.map((e) => [e, ts[e]])) };
    writeCacheFile(file, JSON.stringify(kept));
  } catch {
    // a read-only or full disk only costs the next run the real TypeScript
  }
}
