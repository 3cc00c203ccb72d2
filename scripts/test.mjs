#!/usr/bin/env node
// `npm test` after `npm run build`: the typecheck of src/ and test/ (`tsc -p tsconfig.json --noEmit`)
// beside `generate --check` and `vitest run`, instead of before them. tsc, `generate --check` and vitest's
// global setup (the compile of generated/) each use one core, so in sequence they left the other core idle
// for about half a minute of every run; vitest's two workers fill both. Arguments go to vitest; tsc's
// errors print when it ends; the exit code is the first non-zero one (tsc's, then the tests').
// Usage: node scripts/test.mjs [vitest arguments…]
import { join } from 'node:path';
import { ROOT as root, runNode as run } from './run-node.mjs';

const typecheck = run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
const tests = run([join(root, 'bin/mcpgen.js'), 'generate', '--check']).then((code) =>
  code !== 0 ? code : run([join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)]));
const codes = await Promise.all([typecheck, tests]);
if (codes[0] !== 0) process.stderr.write('npm test: the typecheck (tsc -p tsconfig.json --noEmit) failed\n');
process.exit(codes.find((c) => c !== 0) ?? 0);
