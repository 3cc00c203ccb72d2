// Loading ts-morph means compiling @ts-morph/common's bundled TypeScript (9 MB of JavaScript): about
// 0.25 s of every full `generate` on Node 20, before any code is emitted. Node ≥ 22.1 keeps compiled code
// between runs itself (module.enableCompileCache, called by bin/mcpgen.js); on older Node this module does
// the same for that file and for ts-morph's own 1 MB: it requires each through V8's code cache in mcpgen's
// cache folder (common/code-cache.ts), so the usual `require`s find them loaded.
// (v8-compile-cache was measured first and gained nothing: it stores the cache made before the module runs,
// which holds only the top-level code. @ts-morph/common's 3 MB, mostly the lib .d.ts texts, make a 5.6 MB
// cache that costs more to read than the compile it saves.)
import { createRequire } from 'node:module';
import { mcpgenCacheDir } from '../common/cache-dir.js';
import { nodeHasCompileCache, requireWithCodeCache } from '../common/code-cache.js';
import { requirePrinterCommon } from './ts-morph-common-printer.js';
import { installStandIn, keepExports, typescriptOnDemand } from './typescript-on-demand.js';
import { speedOff } from '../common/speed-off.js';

/**
 * Load @ts-morph/common's TypeScript, then ts-morph itself, through V8 code caches when this Node has no
 * compile cache of its own; where the cache folder holds what it needs, TypeScript is a stand-in that
 * loads the real module only if something beyond ts-morph's printer asks for it (typescript-on-demand.ts).
 * Never throws for the caches' sake: anything unusual leaves the normal `require` to load them.
 */
export function preloadTypeScript(from: string): void {
  let tsMorph: string;
  let tsFile: string;
  try {
    tsMorph = createRequire(from).resolve('ts-morph');
    tsFile = createRequire(tsMorph).resolve('@ts-morph/common/dist/typescript.js');
  } catch {
    return;
  }
  // Next to the run record: the project's node_modules/.cache/mcpgen (the CLI runs in the project).
  const cacheDir = mcpgenCacheDir(process.cwd());
  if (cacheDir === undefined) return;
  const codeCache = !nodeHasCompileCache() && !speedOff('typescript-code-cache');
  // In this order: ts-morph's own require of TypeScript (through @ts-morph/common) then finds it loaded.
  // Saved right away: what module initialisation compiled is what every run needs.
  const loadReal = (): unknown => {
    if (!codeCache) return createRequire(tsMorph)(tsFile);
    const ts = requireWithCodeCache(tsFile, cacheDir);
    ts.save();
    return ts.exports;
  };
  const onDemand = typescriptOnDemand();
  const standIn = onDemand && installStandIn(tsFile, cacheDir, loadReal);
  if (!standIn) {
    const ts = loadReal();
    if (onDemand) keepExports(tsFile, cacheDir, ts as Record<string, unknown>);
  }
  // With TypeScript a stand-in, @ts-morph/common without its lib texts (ts-morph-common-printer.ts), on
  // any Node. Otherwise, on Node 20, the real one through a code cache unless MCPGEN_LAZY_TYPESCRIPT=0
  // (as before: next to the real TypeScript loaded every run, its 5.6 MB cache cost more to read than it saved).
  const common = standIn && !speedOff('printer-copy') ? requirePrinterCommon(createRequire(tsMorph).resolve('@ts-morph/common'), cacheDir) : undefined;
  common?.save();
  if (!codeCache) return;
  if (onDemand && common === undefined) requireWithCodeCache(createRequire(tsMorph).resolve('@ts-morph/common'), cacheDir).save();
  requireWithCodeCache(tsMorph, cacheDir).save();
}

