#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run it after `npm ci`; `npm pack` runs it through `prepack`) and
// bundled into two CommonJS files (scripts/bundle-cli.mjs): `check`, `breaking` and `diff` run from the smaller one, the other
// commands from the one with everything. CommonJS (bin/package.json), so that no command starts Node's ES
// module loader for the CLI itself.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
// Node ≥ 22.1 can keep compiled bytecode of the CLI's dependencies (ts-morph's TypeScript above all) between
// runs; older Node has no such function and compiles every time.
// MCPGEN_SPEED_OFF=name,… or `all` (src/common/speed-off.ts): these two are decided here.
const speedOff = (name) => (process.env.MCPGEN_SPEED_OFF ?? '').split(',').some((n) => n.trim() === name || n.trim() === 'all');
if (!speedOff('compile-cache')) require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
// One bundled file (scripts/bundle-cli.mjs): loading ~100 small modules cost more than checking a small spec.
// `breaking` and `diff` run check's pipeline twice and nothing the smaller bundle leaves out.
const bundle = join(__dirname, ['check', 'breaking', 'diff'].includes(args[0]) ? '../dist/cli/check-bundle.cjs' : '../dist/cli/cli-bundle.cjs');
if (!existsSync(bundle)) {
  process.stderr.write('mcpgen: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
// The bundle comes through V8's code cache, written after the command ran (dist/cli/code-cache.cjs; on
// Node 22 too: Node's compile cache holds only the bundle's top level); anything amiss there, and it is
// required as usual. `import` loads the official MCP client and swagger-parser with import(), and code
// compiled through vm.Script (the code cache) has no import(): loadCli leaves that command to require.
let cli;
try {
  if (!speedOff('cli-code-cache')) cli = require('../dist/cli/code-cache.cjs').loadCli(bundle, args[0]);
} catch {
  cli = undefined;
}
(cli?.exports ?? require(bundle))
  .main(args)
  .then((code) => {
    process.exitCode = code;
    // A run that answered without the pipeline ("output is current") compiled little of the bundle: its
    // cache is kept as partial, and the next run that does compile the pipeline replaces it.
    cli?.save(cli.exports.pipelineRan?.() !== false);
  });
