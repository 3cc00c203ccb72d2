// Issue 31, a lost task runs again: three instances of the jobs server whose `render` allows one re-run
// (task.retry, test/support/retry-jobs-server.mjs) share a real redis-server. tools/call goes to R1, polls to
// R2. R1 is SIGKILLed mid-task; a survivor runs the task again and it completes, polled through R2 all along;
// the handler ran exactly twice (once on R1, once on the survivor), counted through a run log.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { TaskState } from '../../packages/runtime-client/src/index.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { importCompiled, ROOT, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const LEASE_MS = 1_500;
const RUN_LOG = join(mkdtempSync(join(tmpdir(), 'mcpgen-rerun-')), 'runs.log');
let redis: RedisServer;
const instances: Record<string, HttpProcess> = {};
let client: JobsClientType | undefined;

const routed: typeof fetch = async (input, init) => {
  const method = typeof init?.body === 'string' ? String((JSON.parse(init.body) as { method?: unknown }).method) : '';
  const target = new URL((method === 'tools/call' ? instances.R1 : instances.R2)!.url);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  url.host = target.host;
  return fetch(url, init);
};

beforeAll(async () => {
  redis = await startRedis();
  for (const id of ['R1', 'R2', 'R3']) {
    const p = await startScript(join(ROOT, 'test/support/retry-jobs-server.mjs'), [], { env: { INSTANCE_ID: id, REDIS_URL: redis.url, MCPGEN_TASK_LEASE_MS: String(LEASE_MS), RUN_LOG } });
    instances[id] = p;
    await waitFor(() => p.stderr().includes('redis connected'));
  }
  await new Promise((r) => setTimeout(r, LEASE_MS));
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(instances).map((p) => p.stop('SIGKILL')));
  await Promise.race([client?.close(), new Promise((r) => setTimeout(r, 1_000))]);
  await redis?.kill();
});

describe('a re-runnable task whose instance is SIGKILLed', () => {
  it('runs again on a survivor and completes; the handler ran exactly twice', async () => {
    client = await JobsClient.connect({ url: instances.R2!.url, fetch: routed });
    const { task } = await client.startTask('render', { frames: 40, frameMs: 50 });
    await waitFor(async () => (await task!.status()).statusMessage?.startsWith('frame') === true);
    await instances.R1!.stop('SIGKILL');
    const killed = Date.now();
    let last: TaskState = await task!.status();
    let rerunSeenAfter: number | undefined;
    while (!['completed', 'failed', 'cancelled'].includes(last.status) && Date.now() - killed < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
      last = await task!.status(); // every poll through R2 answered
      if (rerunSeenAfter === undefined && last.statusMessage?.startsWith('Running again') === true) rerunSeenAfter = Date.now() - killed;
    }
    expect(last.status).toBe('completed');
    const servedBy = (last.result?.structuredContent as { servedBy?: string } | undefined)?.servedBy;
    expect(['R2', 'R3']).toContain(servedBy);
    const runs = readFileSync(RUN_LOG, 'utf8').trim().split('\n');
    expect(runs.sort()).toEqual(['R1', servedBy].sort());
    process.stderr.write(`[tasks-rerun] SIGKILLed owner's task re-run on ${servedBy} (seen ${rerunSeenAfter ?? '?'} ms after the kill), completed ${Date.now() - killed} ms after the kill\n`);
  }, 40_000);
});
