// npm run bench (tasks part): the generated jobs server (specs/jobs.yaml) with tasks in each store it has, all
// on 127.0.0.1: in process (the default MemoryTaskStore), Redis (one instance, REDIS_URL) and Redis with a
// front and a worker (--front, --worker: the handler runs in another process).
//  - task create → first tasks/get: tools/call of `render` answered with a task, then at once tasks/get for
//    it; the time until that answer, p50/p99 of SAMPLES, one at a time;
//  - throughput: 1,000 short tasks (render, 1 frame, 0 ms) created 16 at a time, each polled every 10 ms
//    until completed; tasks completed per second, wall time from the first create to the last completion.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compileGenerated, freePort, pct, REDIS, ROOT, startProcess } from './support.mjs';

const WORK = join(ROOT, '.tmp/bench-tasks');
const QUICK = process.env.BENCH_QUICK === '1';
const SAMPLES = QUICK ? 100 : 300;
const TASKS = 1000;
if (REDIS === undefined) throw new Error('redis-server is not installed (apt-get install redis-server)');

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const main = join(compileGenerated('jobs', WORK), 'main.js');

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
let nextId = 0;
async function rpc(url, method, params, name) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name };
  const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params: { ...params, _meta: META } }) });
  const json = await r.json();
  if (json.error) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result;
}
const create = async (url, args) => (await rpc(url, 'tools/call', { name: 'render', arguments: args }, 'render')).taskId;
const get = (url, taskId) => rpc(url, 'tasks/get', { taskId }, taskId);

async function createToFirstGet(url) {
  const times = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    const t0 = performance.now();
    const taskId = await create(url, { frames: 1, frameMs: 0 });
    await get(url, taskId);
    if (i >= 20) times.push(performance.now() - t0); // the first 20 warm up
  }
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

async function throughput(url) {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < TASKS) {
      next++;
      const taskId = await create(url, { frames: 1, frameMs: 0 });
      for (;;) {
        const state = await get(url, taskId);
        if (state.status === 'completed') break;
        if (state.status !== 'working') throw new Error(`task ended ${state.status}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }));
  const seconds = (performance.now() - t) / 1000;
  return { perSecond: TASKS / seconds, seconds };
}

const children = [];
try {
  const redisPort = await freePort();
  children.push(spawn(REDIS, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
  const REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  const redisUp = (err) => err.includes('redis connected');
  const [memory, redis, front] = await Promise.all([
    startProcess(main, ['--http', '--port', '0'], { INSTANCE_ID: 'M' }, () => true, children),
    startProcess(main, ['--http', '--port', '0'], { INSTANCE_ID: 'R', REDIS_URL }, redisUp, children),
    startProcess(main, ['--http', '--port', '0', '--front'], { INSTANCE_ID: 'F', REDIS_URL }, redisUp, children),
    startProcess(main, ['--worker', '--port', '0'], { INSTANCE_ID: 'W', REDIS_URL }, redisUp, children),
  ]);
  console.log(`\n### Tasks (render, 1 frame of 0 ms; redis-server on loopback)\n`);
  console.log(`| task store | create → first tasks/get p50 | p99 | ${TASKS} short tasks: completed/s | wall time |`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, url] of [['in process (memory)', memory], ['Redis, one instance', redis], ['Redis, front + worker', front]]) {
    const latency = await createToFirstGet(url);
    const rate = await throughput(url);
    console.log(`| ${name} | ${latency.p50.toFixed(2)} ms | ${latency.p99.toFixed(2)} ms | ${rate.perSecond.toFixed(0)} | ${rate.seconds.toFixed(2)} s |`);
  }
} finally {
  for (const c of children) c.kill('SIGKILL');
}
