#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import module from 'node:module';
// Node ≥ 22.1 can keep compiled bytecode of the CLI and its dependencies (ts-morph's TypeScript above all)
// between runs; older Node has no such function and compiles every time.
module.enableCompileCache?.();
const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('mcpgen: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
