// node bench/runtime-ab.mjs BEFORE AFTER [rounds]: the server rows of bench/run.mjs (section 2:
// tools/call `echo` at c=1 and c=16, 10 and 1,000 tools) for two built checkouts of this repository and
// the bare floor, alternated in one run: each round starts (before, after, bare), the next (bare, after,
// before), so drift on a shared machine falls on both sides. Each checkout generates the bench package
// with its own mcpgen and serves it with its own runtime (bench/servers/mcpgen.mjs of that checkout).
// Prints the median of the rounds per row and the spread (min–max) as Markdown, with the server's CPU
// time per request (user+system from /proc), which other load on a shared machine disturbs least.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMs, echoBody, load, median, startServer } from './server-load.mjs';

const [beforeDir, afterDir, roundsArg] = process.argv.slice(2);
if (beforeDir === undefined || afterDir === undefined) throw new Error('usage: node bench/runtime-ab.mjs BEFORE_CHECKOUT AFTER_CHECKOUT [rounds]');
const ROUNDS = Number(roundsArg ?? 5);
const WARM_UP = 1000; // as bench/run.mjs
const N1 = 2000;
const N16 = 4000;
const ROOT = resolve(import.meta.dirname, '..');
const sides = { before: resolve(beforeDir), after: resolve(afterDir) };

// The package lives inside its checkout, so `@mcpgen/runtime` resolves to that checkout's build.
const packages = {};
for (const [side, dir] of Object.entries(sides)) {
  const work = join(dir, '.tmp/runtime-ab');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const { buildBenchPackage } = await import(pathToFileURL(join(dir, 'bench/bench-package.mjs')).href);
  packages[side] = { 10: buildBenchPackage(work, 10), 1000: buildBenchPackage(work, 1000) };
}

const start = (kind, total) =>
  kind === 'bare'
    ? startServer(join(ROOT, 'bench/servers/bare.mjs'), [String(total), '0'])
    : startServer(join(sides[kind], 'bench/servers/mcpgen.mjs'), [packages[kind][total], '0']);

await (await fetch('data:,')).text(); // load undici before the first timed call
const runs = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const total of [10, 1000]) {
    for (const kind of round % 2 === 0 ? ['before', 'after', 'bare'] : ['bare', 'after', 'before']) {
      const s = await start(kind, total);
      try {
        await load(s.url, echoBody, WARM_UP, 4);
        const cpu0 = cpuMs(s.child.pid);
        const c1 = await load(s.url, echoBody, N1, 1);
        const cpu1 = cpuMs(s.child.pid);
        const c16 = await load(s.url, echoBody, N16, 16);
        const cpu16 = cpuMs(s.child.pid);
        runs.push({ round, total, kind, c1: { ...c1, cpuUs: ((cpu1 - cpu0) * 1000) / N1 }, c16: { ...c16, cpuUs: ((cpu16 - cpu1) * 1000) / N16 } });
      } finally {
        s.child.kill('SIGKILL');
      }
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS}, ${total} tools done\n`);
  }
}

const names = { before: '(a) before the move', after: '(a) after the move', bare: '(c) bare floor' };
const cell = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const out = [`${ROUNDS} rounds, alternated; median (min–max over the rounds)`, '', '| tools | server | c=1 req/s | c=16 req/s | c=1 server CPU µs/req | c=16 server CPU µs/req | c=1 p50 ms | c=16 p99 ms |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
for (const total of [10, 1000]) {
  for (const kind of ['before', 'after', 'bare']) {
    const rs = runs.filter((r) => r.total === total && r.kind === kind);
    out.push(`| ${total} | ${names[kind]} | ${cell(rs.map((r) => r.c1.rps))} | ${cell(rs.map((r) => r.c16.rps))} | ${cell(rs.map((r) => r.c1.cpuUs))} | ${cell(rs.map((r) => r.c16.cpuUs))} | ${median(rs.map((r) => r.c1.p50)).toFixed(2)} | ${median(rs.map((r) => r.c16.p99)).toFixed(2)} |`);
  }
}
// Per round, after/before of the same round: what the alternation is for.
out.push('', '| tools | after/before c=1 req/s, per round | after/before c=16 req/s, per round | after/before c=1 CPU/req | after/before c=16 CPU/req |', '| --- | --- | --- | --- | --- |');
for (const total of [10, 1000]) {
  const ratio = (key, field) => Array.from({ length: ROUNDS }, (_, round) => {
    const get = (kind) => runs.find((r) => r.round === round && r.total === total && r.kind === kind)[key][field];
    return get('after') / get('before');
  });
  const show = (xs) => `median ${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(', ')})`;
  out.push(`| ${total} | ${show(ratio('c1', 'rps'))} | ${show(ratio('c16', 'rps'))} | ${show(ratio('c1', 'cpuUs'))} | ${show(ratio('c16', 'cpuUs'))} |`);
}
process.stdout.write(`${out.join('\n')}\n`);
