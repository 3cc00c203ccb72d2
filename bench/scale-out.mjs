// npm run bench (second part): scale-out on Redis. The generated inventory server (specs/inventory.yaml)
// compiled from generated/, redis-server on a loopback port, all on 127.0.0.1:
//  - notification latency across instances: restock on instance A → notifications/resources/updated heard
//    by a listener on instance B (p50/p99 of 500, one at a time);
//  - tools/call cost with the Redis bus configured vs the in-memory bus (restock publishes on every call),
//    alternated in one run, with the CPU time per call of the serving instance, of the other instance B (which
//    hears the channel) and of redis-server (Linux: /proc/<pid>/stat), the robust figure on a shared machine;
//  - the same with a listen stream open that hears every event (on B for Redis, on the serving instance for
//    memory): the events then cross Redis and are written to a client in both cases.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compileGenerated, freePort, pct, REDIS, ROOT, startProcess } from './support.mjs';

const WORK = join(ROOT, '.tmp/bench-scale');
const QUICK = process.env.BENCH_QUICK === '1';
const SAMPLES = QUICK ? 100 : 500;
const N1 = QUICK ? 300 : 2000;
const N16 = QUICK ? 600 : 4000;
const ROUNDS = QUICK ? 1 : 2;
if (REDIS === undefined) throw new Error('redis-server is not installed (apt-get install redis-server)');

// Compile the generated package (no type check: the test suite does that).
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const out = compileGenerated('inventory', WORK);

const children = [];
const redisPort = await freePort();
children.push(spawn(REDIS, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
const REDIS_URL = `redis://127.0.0.1:${redisPort}`;

/** utime + stime of a process in ms (NaN off Linux). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function startInstance(id, env) {
  const index = children.length; // startProcess adds the child synchronously
  const url = await startProcess(join(out, 'main.js'), ['--http', '--port', '0'], { INSTANCE_ID: id, ...env }, (err) => !env.REDIS_URL || err.includes('redis connected'), children);
  children[index].url = url;
  return url;
}

try {
  const KEYS = { MCPGEN_REQUEST_STATE_KEYS: 'k1:bench-key-of-at-least-thirty-two-bytes' };
  const [a, b, local] = await Promise.all([
    startInstance('A', { ...KEYS, REDIS_URL }),
    startInstance('B', { ...KEYS, REDIS_URL }),
    startInstance('L', KEYS),
  ]);
  const { InventoryClient } = await import(join(out, 'client.js'));
  const [redisPid, , bPid] = children.map((c) => c.pid);

  // 1. Latency across instances.
  const listener = await InventoryClient.connect({ url: b });
  const caller = await InventoryClient.connect({ url: a });
  const sub = await listener.listen({ resourceSubscriptions: ['inventory://items/LAT'] });
  const it = sub[Symbol.asyncIterator]();
  const latencies = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    const t0 = performance.now();
    const heard = it.next();
    await caller.restock({ sku: 'LAT', units: 1 });
    await heard;
    if (i >= 20) latencies.push(performance.now() - t0); // the first 20 warm up
  }
  await sub.close();
  await Promise.all([listener.close(), caller.close()]);
  // Part 2 measures instances with no listen stream open: B's bus keeps the channel subscribed for 1 s
  // after its last listener left (unsubscribeAfterMs), so that time passes first.
  await new Promise((r) => setTimeout(r, 1_500));

  // 2. tools/call cost, Redis bus vs in-memory bus, alternated.
  const body = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'restock', arguments: { sku: 'COST', units: 1 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'restock' };
  async function load(url, total, concurrency) {
    let next = 0;
    const times = [];
    const server = children.find((c) => c.url === url).pid;
    const cpu0 = [server, bPid, redisPid].map(cpuMs);
    const t = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const id = next++;
        const t0 = performance.now();
        const r = await fetch(url, { method: 'POST', headers, body: body(id) });
        const json = await r.json();
        if (json.result?.structuredContent?.sku !== 'COST') throw new Error(`wrong answer: ${JSON.stringify(json)}`);
        times.push(performance.now() - t0);
      }
    }));
    const rps = total / ((performance.now() - t) / 1000);
    const [serverUs, bUs, redisUs] = [server, bPid, redisPid].map((pid, i) => ((cpuMs(pid) - cpu0[i]) * 1000) / total);
    return { rps, p50: pct(times, 50), p99: pct(times, 99), cpu: { server: serverUs, b: bUs, redis: redisUs } };
  }
  const cost = { redis: { 1: [], 16: [] }, memory: { 1: [], 16: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of [['redis', a], ['memory', local]]) {
      cost[name][1].push(await load(url, N1, 1));
      cost[name][16].push(await load(url, N16, 16));
    }
  }
  // 3. The same with a listen stream open that hears every restock: on instance B for the Redis bus (the
  // event crosses Redis), on the serving instance itself for the in-memory bus (the only place it can hear).
  const heard = { redis: 0, memory: 0 };
  async function withListener(name, url, run) {
    const listener = await InventoryClient.connect({ url });
    const stream = await listener.listen({ resourceSubscriptions: ['inventory://items/COST'] });
    const draining = (async () => {
      for await (const _ of stream) heard[name]++;
    })();
    try {
      return await run();
    } finally {
      await stream.close();
      await draining.catch(() => {});
      await listener.close();
    }
  }
  const listened = { redis: { 1: [], 16: [] }, memory: { 1: [], 16: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url, listenAt] of [['redis', a, b], ['memory', local, local]]) {
      await withListener(name, listenAt, async () => {
        listened[name][1].push(await load(url, N1, 1));
        listened[name][16].push(await load(url, N16, 16));
      });
    }
  }
  const best = (runs) => runs.reduce((x, y) => (y.rps > x.rps ? y : x));

  console.log(`\n### Scale-out on Redis (redis-server ${REDIS_URL.replace(/:\d+$/, '')}, loopback)\n`);
  console.log(`Notification latency, restock on instance A → listener on instance B (${SAMPLES} samples): p50 ${pct(latencies, 50).toFixed(2)} ms, p99 ${pct(latencies, 99).toFixed(2)} ms (includes the tools/call round trip)\n`);
  console.log('| bus | c=1 req/s | c=1 p50 | c=1 p99 | c=16 req/s | c=16 p50 | c=16 p99 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const name of ['memory', 'redis']) {
    const [c1, c16] = [best(cost[name][1]), best(cost[name][16])];
    console.log(`| ${name} | ${c1.rps.toFixed(0)} | ${c1.p50.toFixed(2)} ms | ${c1.p99.toFixed(2)} ms | ${c16.rps.toFixed(0)} | ${c16.p50.toFixed(2)} ms | ${c16.p99.toFixed(2)} ms |`);
  }
  const ratio = (c) => best(cost.redis[c]).rps / best(cost.memory[c]).rps;
  console.log(`\nredis/memory req/s: ${ratio(1).toFixed(2)} (c=1), ${ratio(16).toFixed(2)} (c=16) — best of ${ROUNDS} alternated rounds`);
  const listenedRatio = (c) => best(listened.redis[c]).rps / best(listened.memory[c]).rps;
  console.log(`With a listen stream open (on B for redis, on the serving instance for memory; notifications heard: redis ${heard.redis}, memory ${heard.memory}): ${best(listened.memory[1]).rps.toFixed(0)} / ${best(listened.redis[1]).rps.toFixed(0)} req/s (memory / redis) at c=1, ${best(listened.memory[16]).rps.toFixed(0)} / ${best(listened.redis[16]).rps.toFixed(0)} at c=16; redis/memory ${listenedRatio(1).toFixed(2)} (c=1), ${listenedRatio(16).toFixed(2)} (c=16)`);
  const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const us = (name, c, who) => mean(cost[name][c].map((r) => r.cpu[who])).toFixed(0);
  console.log(`\nCPU per call (µs, mean of ${ROUNDS} rounds; /proc, 10 ms ticks):\n`);
  console.log('| bus | c=1 serving instance | c=1 instance B | c=1 redis-server | c=16 serving instance | c=16 instance B | c=16 redis-server |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const name of ['memory', 'redis']) console.log(`| ${name} | ${[1, 16].flatMap((c) => ['server', 'b', 'redis'].map((w) => us(name, c, w))).join(' | ')} |`);
} finally {
  for (const c of children) c.kill('SIGKILL');
}
