// The server half of the bench, shared by bench/run.mjs (section 2) and bench/runtime-ab.mjs: start a
// bench server process on 127.0.0.1, and drive tools/call `echo` or tools/list at it from a keep-alive
// fetch client in this process.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
export const echoBody = (i) => ({ method: 'tools/call', name: 'echo', body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { name: `n${i}`, count: i % 100, ratio: 0.5, mode: 'fast', tags: ['a', 'b'], flag: true }, _meta: META } }) });
export const listBody = (i) => ({ method: 'tools/list', body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list', params: { _meta: META } }) });

export async function call(url, req, token) {
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': req.method, ...(req.name ? { 'mcp-name': req.name } : {}) };
  const r = await fetch(url, { method: 'POST', headers, body: req.body });
  const text = await r.text();
  return { status: r.status, text };
}

/** `count` requests made by `make`, `concurrency` at a time: req/s and latency percentiles (ms). */
export async function load(url, make, count, concurrency, token) {
  const latencies = [];
  let next = 0;
  const began = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      const r = await call(url, make(i), token);
      latencies.push(performance.now() - t);
      if (r.status !== 200 || r.text.includes('"isError":true')) throw new Error(`bad answer ${r.status} ${r.text.slice(0, 200)}`);
    }
  }));
  const wall = (performance.now() - began) / 1000;
  return { rps: count / wall, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

/** Spawns a bench server script (it prints "listening on URL" on stderr); resolves after its first answered tools/call. */
export function startServer(script, args, env = {}, token = undefined) {
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  return new Promise((resolvePromise, reject) => {
    let err = '';
    child.stderr.on('data', async (c) => {
      err += c.toString();
      const m = /listening on (\S+)/.exec(err);
      if (!m) return;
      child.stderr.removeAllListeners('data');
      const url = m[1];
      const first = await call(url, echoBody(0), token);
      if (first.status !== 200) return reject(new Error(`${script}: first call ${first.status} ${first.text}`));
      resolvePromise({ url, child, coldMs: Number(process.hrtime.bigint() - began) / 1e6 });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${err}`)));
  });
}

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** CPU milliseconds the process has used so far (utime + stime, fields 14 and 15 of /proc/pid/stat). */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
