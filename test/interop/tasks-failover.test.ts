// Issue 31, no abandoned task: three processes of the generated jobs server (its own main.js, configured by
// REDIS_URL and MCPGEN_TASK_LEASE_MS) share a real redis-server. The client sends tools/call to A and every
// other request (tasks/get) to B. A is SIGKILLed mid-task; a survivor ends the task `failed` with the
// lost-worker error within 4/3 of the lease, and every poll through B along the way is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { TaskState } from '../../packages/runtime-client/src/index.js';
import { LOST_WORKER_MESSAGE } from '../../packages/runtime/src/server/tasks/runner.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { waitFor } from '../support/ports.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const LEASE_MS = 1_500;
let redis: RedisServer;
const instances: Record<string, HttpProcess | undefined> = { A: undefined, B: undefined, C: undefined };
/** The instance tools/call goes to. */
let callTo = 'A';
let client: JobsClientType | undefined;

/** tools/call to A, everything else to B (as a balancer routing on Mcp-Method would). */
const routed: typeof fetch = async (input, init) => {
  const method = typeof init?.body === 'string' ? String((JSON.parse(init.body) as { method?: unknown }).method) : '';
  const target = new URL(method === 'tools/call' ? instances[callTo]!.url : instances.B!.url);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  url.host = target.host;
  return fetch(url, init);
};

async function startInstance(id: string): Promise<HttpProcess> {
  const p = await startScript(compiledMain('jobs'), [], { env: { INSTANCE_ID: id, REDIS_URL: redis.url, MCPGEN_TASK_LEASE_MS: String(LEASE_MS) } });
  instances[id] = p;
  await waitFor(() => p.stderr().includes('redis connected'));
  return p;
}

beforeAll(async () => {
  redis = await startRedis();
  for (const id of ['A', 'B', 'C']) await startInstance(id);
  // Survivors judge leases only after a whole lease period connected.
  await new Promise((r) => setTimeout(r, LEASE_MS));
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(instances).map((p) => p?.stop('SIGKILL')));
  // The client's close may wait on its own task being cancelled through dead instances: bounded.
  await Promise.race([client?.close(), new Promise((r) => setTimeout(r, 1_000))]);
  await redis?.kill();
});

describe('a task whose instance is SIGKILLed', () => {
  it('is failed with the lost-worker error by a survivor within 4/3 of the lease, every poll answered', async () => {
    client ??= await JobsClient.connect({ url: instances.B!.url, fetch: routed });
    const { task } = await client.startTask('render', { frames: 1000, frameMs: 20 });
    await waitFor(async () => (await task!.status()).status === 'working');
    await instances.A!.stop('SIGKILL');
    const killed = Date.now();
    let polls = 0;
    let last = await task!.status();
    while (last.status === 'working' && Date.now() - killed < 15_000) {
      await new Promise((r) => setTimeout(r, 100));
      last = await task!.status(); // throws (fails the test) if a poll is not answered
      polls++;
    }
    const detected = Date.now() - killed;
    expect(last.status).toBe('failed');
    expect(last.error?.message).toBe(LOST_WORKER_MESSAGE);
    expect(polls).toBeGreaterThan(0);
    expect(detected).toBeLessThanOrEqual((LEASE_MS * 4) / 3 + 1_000);
    process.stderr.write(`[tasks-failover] SIGKILLed owner's task failed after ${detected} ms (lease ${LEASE_MS} ms, ${polls} polls through B)\n`);
  }, 30_000);
});

describe('SIGTERM on the instance running tasks (grace 10 s)', () => {
  it('a task that finishes within the grace period completes before the instance exits', async () => {
    const d = await startInstance('D');
    callTo = 'D';
    client ??= await JobsClient.connect({ url: instances.B!.url, fetch: routed });
    const { task } = await client.startTask('render', { frames: 30, frameMs: 50 });
    await waitFor(async () => (await task!.status()).status === 'working');
    const exited = d.stop('SIGTERM');
    const final = await waitForEnd(task!);
    expect(final.status).toBe('completed');
    expect(final.result?.structuredContent).toEqual({ frames: 30, servedBy: 'D' });
    await exited;
  }, 30_000);

  it('a task still running at the end of the grace period is handed over: failed (lost worker) within a third of the lease', async () => {
    const e = await startInstance('E');
    callTo = 'E';
    client ??= await JobsClient.connect({ url: instances.B!.url, fetch: routed });
    const { task } = await client.startTask('render', { frames: 1000, frameMs: 20 });
    await waitFor(async () => (await task!.status()).status === 'working');
    await e.stop('SIGTERM');
    const exited = Date.now();
    const final = await waitForEnd(task!);
    const handedOver = Date.now() - exited;
    expect(final.status).toBe('failed');
    expect(final.error?.message).toBe(LOST_WORKER_MESSAGE);
    expect(handedOver).toBeLessThanOrEqual(LEASE_MS / 3 + 1_000);
    process.stderr.write(`[tasks-failover] SIGTERMed owner's unfinished task failed ${handedOver} ms after the instance exited\n`);
  }, 40_000);
});

async function waitForEnd(task: { status(): Promise<TaskState> }): Promise<TaskState> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const state = await task.status();
    if (state.status !== 'working') return state;
  }
  throw new Error('task still working after 30 s');
}
