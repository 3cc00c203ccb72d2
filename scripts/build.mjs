#!/usr/bin/env node
// `npm run build`: the runtime package and its bundle first (everything else imports them), then two
// independent lines at once, so the second core is not idle while one tsc runs: the client runtime's tsc;
// the precompiled validators, then the generator's tsc beside the CLI bundles (esbuild reads src/ itself,
// not tsc's output). The exit code is the first non-zero one.
import { join } from 'node:path';
import { inOrder, ROOT, runNode } from './run-node.mjs';

const tsc = (project) => () => runNode([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project]);
const script = (file) => () => runNode([join(ROOT, file)]);

const first = await inOrder(script('scripts/clean-dist.mjs'), tsc('packages/runtime/tsconfig.json'), script('packages/runtime/scripts/bundle.mjs'));
if (first !== 0) process.exit(first);
const codes = await Promise.all([
  tsc('packages/runtime-client/tsconfig.json')(),
  inOrder(script('scripts/precompile-validators.mjs'), () => Promise.all([tsc('tsconfig.build.json')(), script('scripts/bundle-cli.mjs')()]).then((c) => c.find((x) => x !== 0) ?? 0)),
]);
process.exit(codes.find((c) => c !== 0) ?? 0);
