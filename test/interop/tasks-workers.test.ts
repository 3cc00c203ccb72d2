// Issue 31, workers: a front instance (`main.js --http --front`) that creates, reads, answers and cancels tasks
// but runs no handler, and two worker instances (`main.js --worker`, probes only) that run the queued tasks,
// all sharing a real redis-server. The tasks suite's scenarios against that split: results, input answered
// through the front, cancel through the front, many tasks spread over the workers, a worker SIGKILLed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { TaskState } from '../../packages/runtime-client/src/index.js';
import { LOST_WORKER_MESSAGE } from '../../packages/runtime/src/server/tasks/runner.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const LEASE_MS = 1_500;
let redis: RedisServer;
const instances: Record<string, HttpProcess> = {};
const clients: JobsClientType[] = [];

async function start(id: string, role: '--front' | '--worker'): Promise<HttpProcess> {
  const p = await startScript(compiledMain('jobs'), [role], { env: { INSTANCE_ID: id, REDIS_URL: redis.url, MCPGEN_TASK_LEASE_MS: String(LEASE_MS) } });
  instances[id] = p;
  await waitFor(() => p.stderr().includes('redis connected'));
  return p;
}

async function connect(options: Parameters<typeof JobsClient.connect>[1] = {}): Promise<JobsClientType> {
  const client = await JobsClient.connect({ url: instances.F!.url }, options);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  redis = await startRedis();
  await start('F', '--front');
  await start('W1', '--worker');
  await start('W2', '--worker');
  await new Promise((r) => setTimeout(r, LEASE_MS)); // leases are judged after a whole lease period connected
}, 60_000);

afterAll(async () => {
  await Promise.race([Promise.allSettled(clients.map((c) => c.close())), new Promise((r) => setTimeout(r, 1_000))]);
  await Promise.allSettled(Object.values(instances).map((p) => p.stop('SIGKILL')));
  await redis?.kill();
});

describe('a front instance and worker instances (Redis)', () => {
  it('a worker serves only its probes', async () => {
    const base = new URL(instances.W1!.url).origin;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/mcp`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('a task created through the front runs on a worker and its result is read through the front', async () => {
    const client = await connect();
    const result = await client.render({ frames: 5, frameMs: 20 });
    expect(result.structuredContent).toMatchObject({ frames: 5 });
    expect(['W1', 'W2']).toContain((result.structuredContent as { servedBy: string }).servedBy);
  });

  it('input asked on a worker is answered through the front (tasks/update) and reaches the handler', async () => {
    const client = await connect({ onElicit: () => ({ action: 'accept', content: { confirm: true } }) });
    const result = await client.purge({ dataset: 'shared' });
    expect(result.structuredContent).toMatchObject({ dataset: 'shared', purged: true });
    expect(['W1', 'W2']).toContain((result.structuredContent as { servedBy: string }).servedBy);
  });

  it('a cancel through the front stops the handler on the worker', async () => {
    const client = await connect();
    const { task } = await client.startTask('render', { frames: 1000, frameMs: 20 });
    await waitFor(async () => (await task!.status()).statusMessage?.startsWith('frame') === true);
    await task!.cancel();
    const after: TaskState = await task!.status();
    expect(after.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    expect(await task!.status()).toEqual(after); // the worker's handler writes no more status messages
  });

  it('40 tasks at once are spread over both workers and all complete', async () => {
    const client = await connect();
    const results = await Promise.all(Array.from({ length: 40 }, () => client.render({ frames: 3, frameMs: 20 })));
    const servedBy = new Set(results.map((r) => (r.structuredContent as { servedBy: string }).servedBy));
    expect([...servedBy].sort()).toEqual(['W1', 'W2']);
  }, 30_000);

  it('a worker SIGKILLed mid-task: the task is failed with the lost-worker error within 4/3 of the lease', async () => {
    const client = await connect();
    const { task } = await client.startTask('render', { frames: 1000, frameMs: 20 });
    await waitFor(async () => (await task!.status()).statusMessage?.startsWith('frame') === true);
    // Which worker runs it is not on the wire until the result: kill W2; if the task still makes progress, W1 runs it.
    await instances.W2!.stop('SIGKILL');
    let from = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    const before = (await task!.status()).statusMessage;
    await new Promise((r) => setTimeout(r, 300));
    if ((await task!.status()).statusMessage !== before) {
      await instances.W1!.stop('SIGKILL');
      from = Date.now();
    }
    let last = await task!.status();
    while (last.status === 'working' && Date.now() - from < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      last = await task!.status();
    }
    expect(last.status).toBe('failed');
    expect(last.error?.message).toBe(LOST_WORKER_MESSAGE);
    expect(Date.now() - from).toBeLessThanOrEqual((LEASE_MS * 4) / 3 + 1_500);
  }, 30_000);
});
