// npm run bench: the generated inventory server on the three Redis topologies (issue 50) — a standalone
// redis-server, Sentinel (1 master, 1 replica, 3 sentinels) and a 6-node Cluster, started by the same code as
// the interop tests (test/support/redis.ts and redis-topologies.ts, bundled here with esbuild). Per topology two instances:
// A serves `tools/call restock` under a shared rate limit (MCPGEN_RATE_LIMIT_TOOLS restock=100000/60, counted
// in Redis in reservations of 1 %), B holds a listen stream that hears every restock (the event crosses Redis:
// PUBLISH, or SPUBLISH on the cluster). c=1 and c=16, topologies alternated per round, best of ROUNDS; the
// ratio Sentinel/standalone and Cluster/standalone (target ≥ 0.9).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { compileGenerated, pct, ROOT, startProcess } from './support.mjs';

const WORK = join(ROOT, '.tmp/bench-redis-topologies');
const QUICK = process.env.BENCH_QUICK === '1';
const N1 = QUICK ? 300 : 2000;
const N16 = QUICK ? 600 : 4000;
const ROUNDS = QUICK ? 1 : 2;

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const out = compileGenerated('inventory', WORK);
const support = join(WORK, 'redis-topologies.mjs');
const entry = "export { startRedis } from './test/support/redis.ts'; export { startRedisCluster, startRedisSentinel } from './test/support/redis-topologies.ts';";
await build({ stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', outfile: support, logLevel: 'error' });
const { startRedis, startRedisCluster, startRedisSentinel } = await import(support);
const { InventoryClient } = await import(join(out, 'client.js'));

const children = [];
const stops = [];
const topologies = {
  standalone: async () => {
    const r = await startRedis();
    stops.push(() => r.kill());
    return { REDIS_URL: r.url };
  },
  sentinel: async () => {
    const s = await startRedisSentinel('bench');
    stops.push(() => s.stop());
    return { MCPGEN_REDIS_SENTINELS: s.addresses, MCPGEN_REDIS_MASTER_NAME: 'bench' };
  },
  cluster: async () => {
    const c = await startRedisCluster();
    stops.push(() => c.stop());
    return { MCPGEN_REDIS_CLUSTER: c.seeds };
  },
};

const body = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'restock', arguments: { sku: 'COST', units: 1 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'restock' };

async function load(url, total, concurrency) {
  let next = 0;
  const times = [];
  const t = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const id = next++;
      const t0 = performance.now();
      const json = await (await fetch(url, { method: 'POST', headers, body: body(id) })).json();
      if (json.result?.structuredContent?.sku !== 'COST') throw new Error(`wrong answer: ${JSON.stringify(json)}`);
      times.push(performance.now() - t0);
    }
  }));
  return { rps: total / ((performance.now() - t) / 1000), p50: pct(times, 50), p99: pct(times, 99) };
}

try {
  const env = {};
  for (const [name, start] of Object.entries(topologies)) env[name] = await start();
  const common = { MCPGEN_REQUEST_STATE_KEYS: 'k1:bench-key-of-at-least-thirty-two-bytes', MCPGEN_RATE_LIMIT_TOOLS: 'restock=100000/60' };
  const served = {};
  for (const name of Object.keys(topologies)) {
    const [a, b] = await Promise.all(['A', 'B'].map((id) => startProcess(join(out, 'main.js'), ['--http', '--port', '0'], { ...common, ...env[name], INSTANCE_ID: id }, (err) => err.includes('redis connected'), children)));
    const listener = await InventoryClient.connect({ url: b });
    const stream = await listener.listen({ resourceSubscriptions: ['inventory://items/COST'] });
    const heard = { n: 0 };
    void (async () => {
      for await (const _ of stream) heard.n++;
    })().catch(() => {});
    served[name] = { a, heard, results: { 1: [], 16: [] } };
    await load(a, 200, 4); // warm-up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? Object.keys(served) : Object.keys(served).reverse()) {
      served[name].results[1].push(await load(served[name].a, N1, 1));
      served[name].results[16].push(await load(served[name].a, N16, 16));
    }
  }
  const best = (runs) => runs.reduce((x, y) => (y.rps > x.rps ? y : x));
  console.log(`\n### tools/call on the three Redis topologies (shared rate limit, a listen stream open on another instance; best of ${ROUNDS} alternated rounds)\n`);
  console.log('| topology | c=1 req/s | c=1 p50 | c=1 p99 | c=16 req/s | c=16 p50 | c=16 p99 | ×standalone c=1 | ×standalone c=16 | notifications heard |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, s] of Object.entries(served)) {
    const [c1, c16] = [best(s.results[1]), best(s.results[16])];
    const ratio = (c) => (best(s.results[c]).rps / best(served.standalone.results[c]).rps).toFixed(2);
    console.log(`| ${name} | ${c1.rps.toFixed(0)} | ${c1.p50.toFixed(2)} ms | ${c1.p99.toFixed(2)} ms | ${c16.rps.toFixed(0)} | ${c16.p50.toFixed(2)} ms | ${c16.p99.toFixed(2)} ms | ${ratio(1)} | ${ratio(16)} | ${s.heard.n} |`);
  }
} finally {
  for (const c of children) c.kill('SIGKILL');
  for (const stop of stops) await stop().catch(() => {});
}
