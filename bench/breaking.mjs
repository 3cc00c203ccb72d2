// node bench/breaking.mjs: `mcpgen breaking --base FILE` against `mcpgen check` of the same 1,000-tool spec,
// (a) with one change (one tool's argument removed) and (b) with none. Each run is a fresh process with a
// fresh cache folder (a CI job's cold start), the three commands alternated, median of BREAKING_RUNS
// (default 5) after a warm-up. BREAKING_TOOLS (default 1000) tools. Target (issue 45 #9): breaking ≤ 1.5× check.
// Wall time and CPU time (bench/cpu-usage.cjs) of each run, each ratio measured within this one run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { syntheticSpec } from './synthetic-spec.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-breaking');
const RUNS = Number(process.env.BREAKING_RUNS ?? 5);
const TOOLS = Number(process.env.BREAKING_TOOLS ?? 1000);
const MCPGEN = join(ROOT, 'bin/mcpgen.js');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const spec = join(WORK, 'big.yaml');
const same = join(WORK, 'same.yaml');
const changed = join(WORK, 'changed.yaml');
const text = syntheticSpec(TOOLS, 'big');
writeFileSync(spec, text);
writeFileSync(same, text);
// The old version had one more argument on one tool in the middle: the new spec removed it (one finding).
const old = parse(text);
const tool = old.tools[Math.floor(TOOLS / 2)];
tool.input.properties.legacy_flag = { type: 'boolean' };
writeFileSync(changed, stringify(old));

function time(args, expectCode) {
  const cache = mkdtempSync(join(WORK, 'cache-'));
  const cpuFile = join(cache, 'cpu');
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/cpu-usage.cjs'), MCPGEN, ...args], { cwd: WORK, encoding: 'utf8', env: { ...process.env, MCPGEN_CACHE_DIR: cache, NO_COLOR: '1', BENCH_CPU_FILE: cpuFile } });
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== expectCode) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const cpu = Number(readFileSync(cpuFile, 'utf8'));
  rmSync(cache, { recursive: true, force: true });
  return { wall, cpu };
}

const cases = [
  { name: 'check', args: ['check', spec], code: 0 },
  { name: 'breaking, one change', args: ['breaking', '--base', changed, spec], code: 1 },
  { name: 'breaking, no change', args: ['breaking', '--base', same, spec], code: 0 },
];
const runs = Object.fromEntries(cases.map((c) => [c.name, []]));
for (let i = 0; i <= RUNS; i++) {
  const order = i % 2 === 0 ? cases : [...cases].reverse();
  for (const c of order) {
    const s = time(c.args, c.code);
    if (i > 0) runs[c.name].push(s);
  }
}
const of = (name, k) => median(runs[name].map((r) => r[k]));
const out = ['', `### \`breaking\` against \`check\` (${TOOLS} tools, cold cache, median of ${RUNS})`, '', '| run | wall time | ratio to check | CPU time | ratio to check |', '| --- | --- | --- | --- | --- |'];
for (const c of cases) out.push(`| ${c.name} | ${of(c.name, 'wall').toFixed(2)} s | ${(of(c.name, 'wall') / of('check', 'wall')).toFixed(2)}× | ${of(c.name, 'cpu').toFixed(2)} s | ${(of(c.name, 'cpu') / of('check', 'cpu')).toFixed(2)}× |`);
out.push('', 'target: breaking ≤ 1.5× check');
process.stdout.write(`${out.join('\n')}\n`);
