// node bench/speed-off.mjs: what each speed mechanism buys (issue 49). For the baseline, each mechanism
// turned off in turn (MCPGEN_SPEED_OFF, src/common/speed-off.ts) and all of them off, in this one run: the
// generation rows against openapi-mcp-generator as bench/run.mjs measures them (full generate of 10, 100
// and 1,000 tools, a current run of 10 tools; the two alternated, a warm-up then SPEED_RUNS runs, medians of
// wall and CPU time, each variant with its own fresh cache folder) and `generate --watch`'s one-tool edit
// of 1,000 tools (bench/watch.mjs, SPEED_WATCH_EDITS edits). `breaking` against `check` (bench/breaking.mjs)
// for the variants that touch its machinery. SPEED_VARIANTS=a,b limits the variants ("none" is the baseline;
// a+b turns both off in one variant).
// SPEED_BEFORE=<another checkout, built> adds a first row, "before": that checkout's CLI and bench scripts,
// nothing off (a before/after in one run).
// Targets: full ≤ 1.5× the peer at 10 tools, ≤ 2.0× at 1,000; current run ≤ 1.0×; --watch ≤ 150 ms;
// breaking ≤ 1.5× check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { syntheticOpenApi, syntheticSpec } from './synthetic-spec.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-speed-off');
const MCPGEN = join(ROOT, 'bin/mcpgen.js');
const OAMG = join(ROOT, 'bench/peers/node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');
const CPU = join(ROOT, 'bench/cpu-usage.cjs');
const RUNS = Number(process.env.SPEED_RUNS ?? 3);
const EDITS = process.env.SPEED_WATCH_EDITS ?? '5';
const MECHANISMS = [...readFileSync(join(ROOT, 'src/common/speed-off.ts'), 'utf8').matchAll(/^ {2}'([a-z0-9-]+)',/gm)].map((m) => m[1]);
const BEFORE = process.env.SPEED_BEFORE;
const VARIANTS = [...(BEFORE ? ['before'] : []), ...(process.env.SPEED_VARIANTS?.split(',') ?? ['none', ...MECHANISMS, 'all'])];
const BREAKING = new Set(['before', 'none', 'watch-caches', 'breaking-reuse', 'all']);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const specs = {};
for (const n of [10, 100, 1000]) {
  specs[n] = { mcpgen: join(WORK, `vs${n}.yaml`), openapi: join(WORK, `vs${n}.openapi.yaml`) };
  writeFileSync(specs[n].mcpgen, syntheticSpec(n, `vs${n}`));
  writeFileSync(specs[n].openapi, syntheticOpenApi(n, `vs${n}`));
}

let runId = 0;
/** One process: wall seconds and CPU seconds (bench/cpu-usage.cjs). */
function timed(args, env) {
  const cpuFile = join(WORK, `cpu-${runId++}`);
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', CPU, ...args], { cwd: WORK, encoding: 'utf8', env: { ...process.env, ...env, BENCH_CPU_FILE: cpuFile } });
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { wall, cpu: Number(readFileSync(cpuFile, 'utf8')) };
}

/** mcpgen and the peer alternated: run 0 is the warm-up (fills the caches; makes a current run current). */
function versus(mcpgenArgs, peerArgs, env, mcpgen = MCPGEN) {
  const runs = { mcpgen: [], peer: [] };
  for (let i = 0; i <= RUNS; i++) {
    for (const tool of i % 2 === 0 ? ['mcpgen', 'peer'] : ['peer', 'mcpgen']) {
      const r = tool === 'mcpgen' ? timed([mcpgen, ...mcpgenArgs()], env) : timed([OAMG, ...peerArgs()], {});
      if (i > 0) runs[tool].push(r);
    }
  }
  const m = (rs, k) => median(rs.map((r) => r[k]));
  return { wall: m(runs.mcpgen, 'wall') / m(runs.peer, 'wall'), cpu: m(runs.mcpgen, 'cpu') / m(runs.peer, 'cpu'), mcpgenWall: m(runs.mcpgen, 'wall'), mcpgenCpu: m(runs.mcpgen, 'cpu') };
}

function script(file, env, root = ROOT) {
  const r = spawnSync(process.execPath, [join(root, 'bench', file)], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) return `failed: ${r.stderr.slice(-300)}`;
  return r.stdout;
}

const rows = [];
let fresh = 0;
for (const variant of VARIANTS) {
  const cache = join(WORK, `cache-${variant}`);
  const env = { MCPGEN_CACHE_DIR: cache, ...(variant === 'none' || variant === 'before' ? {} : { MCPGEN_SPEED_OFF: variant.replaceAll('+', ',') }) };
  const root = variant === 'before' ? resolve(BEFORE) : ROOT;
  const bin = join(root, 'bin/mcpgen.js');
  const load = loadavg()[0];
  const full10 = versus(() => ['generate', specs[10].mcpgen, '--out', join(WORK, `fresh-${fresh++}`)], () => ['-i', specs[10].openapi, '-o', join(WORK, `peer-${fresh++}`)], env, bin);
  const full100 = versus(() => ['generate', specs[100].mcpgen, '--out', join(WORK, `fresh-${fresh++}`)], () => ['-i', specs[100].openapi, '-o', join(WORK, `peer-${fresh++}`)], env, bin);
  const full1000 = versus(() => ['generate', specs[1000].mcpgen, '--out', join(WORK, `fresh-${fresh++}`)], () => ['-i', specs[1000].openapi, '-o', join(WORK, `peer-${fresh++}`)], env, bin);
  const current = versus(() => ['generate', specs[10].mcpgen, '--out', join(WORK, `current-${variant}`)], () => ['-i', specs[10].openapi, '-o', join(WORK, 'peer-current'), '--force'], env, bin);
  const watchOut = script('watch.mjs', { ...env, WATCH_EDITS: EDITS }, root);
  const watch = /median (\d+) ms/.exec(watchOut)?.[1];
  let breaking = '—';
  if (BREAKING.has(variant)) {
    const out = script('breaking.mjs', { ...env, BREAKING_RUNS: '3' }, root); // each of its runs has a fresh cache folder of its own
    const m = /one change \| [\d.]+ s \| ([\d.]+)× \| [\d.]+ s \| ([\d.]+)×/.exec(out);
    breaking = m ? `${m[1]}× / ${m[2]}×` : out.trim().split('\n').pop();
  }
  for (const dir of [cache]) rmSync(dir, { recursive: true, force: true });
  const row = { variant, load, full10, full100, full1000, current, watch, breaking };
  rows.push(row);
  process.stderr.write(`${JSON.stringify(row)}\n`);
}

const r2 = (n) => n.toFixed(2);
const cell = (v) => `${r2(v.wall)}× / ${r2(v.cpu)}× (${r2(v.mcpgenWall)} s)`;
const lines = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; shared (load average at each variant's start in its row). Ratios mcpgen / openapi-mcp-generator 4.0.1, wall / CPU, median of ${RUNS} after a warm-up, alternated; mcpgen's median wall time in brackets.`,
  '',
  '| off | load | full, 10 tools (≤ 1.5×) | full, 100 tools (no target of its own) | full, 1,000 tools (≤ 2.0×) | current run, 10 tools (≤ 1.0×) | --watch one-tool edit, 1,000 tools (≤ 150 ms) | breaking / check, wall / CPU (≤ 1.5×) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.variant} | ${r.load.toFixed(1)} | ${cell(r.full10)} | ${cell(r.full100)} | ${cell(r.full1000)} | ${cell(r.current)} | ${r.watch ?? '?'} ms | ${r.breaking} |`),
];
writeFileSync(join(WORK, 'report.md'), `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
