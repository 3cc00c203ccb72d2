// Issue 30: what telemetry and rate limits cost. The generated weather server (bench/servers/operations.mjs)
// answers tools/call `add` at concurrency 16 on 127.0.0.1 in each configuration, alternated over rounds
// (the median is reported, with the server's CPU time per request beside requests/s): plain;
// MCPGEN_TELEMETRY=otel with the API only (no SDK: no-op spans); with only the SDK's AsyncLocalStorage
// context manager (what context tracking alone costs); with the SDK and a batch span processor; a rate
// limit counted in memory; one counted in Redis (a redis-server on a free port). Needs `npm run build`; compiles generated/weather into .tmp/compiled when the tests have not.
// Usage: node bench/operations.mjs   (BENCH_N, BENCH_ROUNDS)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { compilePackage } from './bench-package.mjs';
import { cpuMs } from './server-load.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const N = Number(process.env.BENCH_N ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const C = 16;
// The tests compile generated/weather there; `npm run bench` on a fresh checkout compiles it here.
if (!existsSync(join(ROOT, '.tmp/compiled/weather/server.js'))) compilePackage(join(ROOT, 'generated/weather'), join(ROOT, '.tmp/compiled/weather'));

const freePort = () => new Promise((r) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));
const LIMIT = { MCPGEN_RATE_LIMIT: '100000000/60', MCPGEN_RATE_LIMIT_TOOLS: 'add=100000000/60' };
const CONFIGS = {
  plain: {},
  'otel API, no SDK': { MCPGEN_TELEMETRY: 'otel' },
  'otel API + context manager only': { MCPGEN_TELEMETRY: 'otel', BENCH_OTEL_SDK: 'context' },
  'otel SDK, batch': { MCPGEN_TELEMETRY: 'otel', BENCH_OTEL_SDK: '1' },
  'rate limit, memory': LIMIT,
  'rate limit, Redis': { ...LIMIT, REDIS_URL: `redis://127.0.0.1:${redisPort}` },
};

function start(env) {
  const child = spawn(process.execPath, [join(ROOT, 'bench/servers/operations.mjs'), '--http', '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolveStart, reject) => {
    child.stderr.on('data', (c) => {
      err += c;
      const m = /listening on (\S+)/.exec(err);
      if (m) resolveStart({ url: new URL(m[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
function call(url, agent, id) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: id, b: 1 }, _meta: META } });
  return new Promise((ok, fail) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? ok() : fail(new Error(`status ${res.statusCode}`))));
    });
    req.once('error', fail);
    req.end(body);
  });
}

async function load(url, n) {
  const agent = new Agent({ keepAlive: true, maxSockets: C });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, async () => { while (next < n) await call(url, agent, next++); }));
  agent.destroy();
  return n / ((performance.now() - t0) / 1000);
}

const results = Object.fromEntries(Object.keys(CONFIGS).map((k) => [k, []]));
// The server's CPU time per request (user+system from /proc) beside requests/s: other load on a shared
// machine moves it least.
const cpu = Object.fromEntries(Object.keys(CONFIGS).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, env] of Object.entries(CONFIGS)) {
    const { url, child } = await start(env);
    await load(url, 500); // warm-up
    const cpu0 = cpuMs(child.pid);
    results[name].push(await load(url, N));
    cpu[name].push(((cpuMs(child.pid) - cpu0) * 1000) / N);
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}
redis.kill();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.plain);
const baseCpu = median(cpu.plain);
console.log(`| configuration (tools/call, c=${C}, N=${N}, median of ${ROUNDS}) | requests/s | vs plain | server CPU µs/request | vs plain |\n| --- | --- | --- | --- | --- |`);
for (const [name, xs] of Object.entries(results)) console.log(`| ${name} | ${median(xs).toFixed(0)} | ${(median(xs) / base).toFixed(2)}× | ${median(cpu[name]).toFixed(0)} | ${(median(cpu[name]) / baseCpu).toFixed(2)}× |`);
