// node bench/cold-start.mjs: cold start = spawn to the first answered tools/call, for (a) the generated
// server, (b) the same tools by hand on the SDK and (c) the bare floor, alternated run by run (the order
// rotates) so machine noise hits all three alike. Reports medians of wall time and of the child's CPU
// time at that moment (user+system from /proc, what a shared machine disturbs least), and (a)/(b).
// COLD_RUNS (default 12) runs per server; COLD_TOOLS (default "10,1000") tool counts.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBenchPackage } from './bench-package.mjs';
import { cpuMs } from './server-load.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-cold');
const RUNS = Number(process.env.COLD_RUNS ?? 12);
const TOTALS = (process.env.COLD_TOOLS ?? '10,1000').split(',').map(Number);
const KINDS = ['mcpgen', 'sdk', 'bare'];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const echo = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { name: 'n', count: 1, ratio: 0.5, mode: 'fast', tags: ['a'], flag: true }, _meta: META } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

function coldStart(kind, total, pkg) {
  const script = join(ROOT, 'bench/servers', `${kind}.mjs`);
  const args = kind === 'mcpgen' ? [pkg, '0'] : [String(total), '0'];
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let err = '';
    const onExit = (code) => reject(new Error(`${kind} exited ${code}: ${err}`));
    child.once('exit', onExit);
    child.stderr.on('data', async (c) => {
      err += c.toString();
      const m = /listening on (\S+)/.exec(err);
      if (!m) return;
      child.stderr.removeAllListeners('data');
      try {
        const r = await fetch(m[1], { method: 'POST', headers, body: echo });
        const text = await r.text();
        const wallMs = Number(process.hrtime.bigint() - began) / 1e6;
        const cpu = cpuMs(child.pid);
        if (r.status !== 200 || text.includes('"isError":true')) throw new Error(`${kind}: first call ${r.status} ${text.slice(0, 200)}`);
        resolvePromise({ wallMs, cpuMs: cpu });
      } catch (e) {
        reject(e);
      } finally {
        child.off('exit', onExit);
        child.kill('SIGKILL');
      }
    });
  });
}

const lines = [`Cold start (spawn to first answered tools/call), ${RUNS} runs each, alternated; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.`, '', '| tools | server | wall p50 | wall min | CPU p50 | (a)/(b) wall | (a)/(b) CPU |', '| --- | --- | --- | --- | --- | --- | --- |'];
const names = { mcpgen: '(a) mcpgen', sdk: '(b) SDK by hand', bare: '(c) bare floor' };
for (const total of TOTALS) {
  const pkg = buildBenchPackage(WORK, total);
  const runs = Object.fromEntries(KINDS.map((k) => [k, []]));
  for (const kind of KINDS) await coldStart(kind, total, pkg); // warm the file cache, not counted
  for (let i = 0; i < RUNS; i++) {
    const order = KINDS.map((_, j) => KINDS[(i + j) % KINDS.length]);
    for (const kind of order) runs[kind].push(await coldStart(kind, total, pkg));
  }
  const m = Object.fromEntries(KINDS.map((k) => [k, { wall: median(runs[k].map((r) => r.wallMs)), min: Math.min(...runs[k].map((r) => r.wallMs)), cpu: median(runs[k].map((r) => r.cpuMs)) }]));
  for (const kind of KINDS) {
    const ratio = kind === 'mcpgen' ? `${(m.mcpgen.wall / m.sdk.wall).toFixed(2)} | ${(m.mcpgen.cpu / m.sdk.cpu).toFixed(2)}` : ' | ';
    lines.push(`| ${total} | ${names[kind]} | ${m[kind].wall.toFixed(0)} ms | ${m[kind].min.toFixed(0)} ms | ${m[kind].cpu.toFixed(0)} ms | ${ratio} |`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
