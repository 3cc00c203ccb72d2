#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run it after `npm ci`; `npm pack` runs it through `prepack`) and
// bundled into two CommonJS files (scripts/bundle-cli.mjs): `check`, `breaking` and `diff` run from the smaller one, the other
// commands from the one with everything. CommonJS (bin/package.json), so that no command starts Node's ES
// module loader for the CLI itself.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
// Node ≥ 22.1 keeps compiled bytecode of the CLI and its dependencies (ts-morph's TypeScript above all)
// between runs; older Node has no such function (src/emit/typescript-code-cache.ts does it for TypeScript).
// MCPGEN_SPEED_OFF=compile-cache (or all; src/common/speed-off.ts) leaves it off.
const off = (process.env.MCPGEN_SPEED_OFF ?? '').split(',').map((n) => n.trim());
if (!off.includes('compile-cache') && !off.includes('all')) require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
// One bundled file (scripts/bundle-cli.mjs): loading ~100 small modules cost more than checking a small spec.
// `breaking` and `diff` run check's pipeline twice and nothing the smaller bundle leaves out.
const bundle = join(__dirname, ['check', 'breaking', 'diff'].includes(args[0]) ? '../dist/cli/check-bundle.cjs' : '../dist/cli/cli-bundle.cjs');
if (!existsSync(bundle)) {
  process.stderr.write('mcpgen: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
require(bundle)
  .main(args)
  .then((code) => {
    process.exitCode = code;
  });
