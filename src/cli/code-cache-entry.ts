// The entry of dist/cli/code-cache.cjs (scripts/bundle-cli.mjs), which bin/mcpgen.js requires before the
// CLI bundle it runs: it loads that bundle through V8's code cache (common/code-cache.ts), saved after the
// command ran so that it holds what the command compiled. A 10-tool `check` on Node 20: 0.233 -> 0.210 s.
// Also on Node ≥ 22.1, whose own compile cache (module.enableCompileCache) is made right after a file is
// compiled and so holds only the bundle's top level: every function the command ran was compiled again
// in each run, ~20 ms of a 10-tool full `generate` on Node 22 (0.19 -> 0.17 s of CPU), ~10 ms of `check`.
import { mcpgenCacheDir } from '../common/cache-dir.js';
import { requireWithCodeCache, type CachedModule } from '../common/code-cache.js';

/**
 * The CLI bundle `file`, through the code cache when there is a cache folder;
 * `undefined` means "require it as usual".
 */
export function loadCli(file: string, command: string | undefined): CachedModule | undefined {
  if (importsAtRunTime(command)) return undefined;
  const cacheDir = mcpgenCacheDir(process.cwd());
  if (cacheDir === undefined) return undefined;
  return requireWithCodeCache(file, cacheDir);
}

/**
 * Whether the command import()s packages the bundle leaves out. A vm.Script has no import() on Node 20
 * once V8 took its code from a cache ("A dynamic import callback was not specified", whatever
 * importModuleDynamically says), so such commands are required as usual: `test` (fast-check, the MCP
 * client) and `import` (swagger-parser, the
 * MCP client, the resolver's http and dns), and every command on Node that cannot require() ajv's ES
 * module and import()s it ahead (main.ts, before 20.19).
 */
function importsAtRunTime(command: string | undefined): boolean {
  return command === 'import' || command === 'test' || (process.features as { require_module?: boolean }).require_module !== true;
}
