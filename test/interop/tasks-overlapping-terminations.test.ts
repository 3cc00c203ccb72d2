// Issue 46 defect 3, a rolling update's overlapping terminations: three instances of the jobs server
// (test/support/retry-jobs-server.mjs: `render` may run again twice, `snapshot` may not) share a real
// redis-server. A and B each run six render and three snapshot tasks longer than the 10 s grace; A is
// SIGTERMed, and 3 s later B (as a Kubernetes rolling update does); C stays healthy. When A's grace ends it
// hands its tasks over while B still drains: only C may take them. A draining B that claimed them would fail
// the render tasks (it runs nothing more) with two retries left. C sweeps less often than B (a longer lease), so without the fix draining B
// usually sweeps first. Then: every render task completed with one completed run, no snapshot task started twice.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { TaskState } from '../../packages/runtime-client/src/index.js';
import { LOST_WORKER_MESSAGE } from '../../packages/runtime/src/server/tasks/runner.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { importCompiled, ROOT, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const LEASE_MS: Record<string, number> = { A: 1_500, B: 1_500, C: 4_500 };
const EVENT_LOG = join(mkdtempSync(join(tmpdir(), 'mcpgen-overlap-')), 'events.log');
let redis: RedisServer;
const instances: Record<string, HttpProcess> = {};
let client: JobsClientType | undefined;

/** The instance tools/call goes to. */
let callTo = 'A';
/** tools/call to callTo, everything else (tasks/get) to C. */
const routed: typeof fetch = async (input, init) => {
  const method = typeof init?.body === 'string' ? String((JSON.parse(init.body) as { method?: unknown }).method) : '';
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  url.host = new URL(instances[method === 'tools/call' ? callTo : 'C']!.url).host;
  return fetch(url, init);
};

beforeAll(async () => {
  redis = await startRedis();
  await Promise.all(['A', 'B', 'C'].map(async (id) => {
    const env = { INSTANCE_ID: id, REDIS_URL: redis.url, MCPGEN_TASK_LEASE_MS: String(LEASE_MS[id]), RETRY_MAX: '2', SNAPSHOT_TTL_MS: '120000', EVENT_LOG };
    instances[id] = await startScript(join(ROOT, 'test/support/retry-jobs-server.mjs'), [], { env });
    await waitFor(() => instances[id]!.stderr().includes('redis connected'));
  }));
  await new Promise((r) => setTimeout(r, LEASE_MS.C!)); // leases are judged after a whole lease period connected
}, 60_000);

afterAll(async () => {
  await Promise.race([client?.close(), new Promise((r) => setTimeout(r, 1_000))]);
  await Promise.allSettled(Object.values(instances).map((p) => p.stop('SIGKILL')));
  await redis?.kill();
});

describe('SIGTERM A, then B 3 s later, C healthy', () => {
  it('fails no retryable task with retries left and runs no at-most-once task twice', async () => {
    client = await JobsClient.connect({ url: instances.A!.url, fetch: routed });
    const start = async (on: string, base: number) => {
      callTo = on;
      const r = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => ({ key: base + i, task: (await client!.startTask('render', { frames: base + i, frameMs: 700 })).task! })));
      const s = await Promise.all([1, 2, 3].map(async (i) => ({ key: 14_000 + base + i, task: (await client!.startTask('snapshot', { ms: 14_000 + base + i })).task! })));
      return [r, s] as const;
    };
    const [rendersA, snapshotsA] = await start('A', 20);
    const [rendersB, snapshotsB] = await start('B', 30);
    const renders = [...rendersA, ...rendersB];
    const snapshots = [...snapshotsA, ...snapshotsB];
    await new Promise((r) => setTimeout(r, 500));
    const stopA = instances.A!.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 3_000));
    const stopB = instances.B!.stop('SIGTERM');
    await Promise.all([stopA, stopB]);
    const last = new Map<number, TaskState>();
    const all = [...renders, ...snapshots];
    await waitFor(async () => {
      for (const t of all) last.set(t.key, await t.task.status());
      return all.every((t) => ['completed', 'failed', 'cancelled'].includes(last.get(t.key)!.status));
    }, 60_000);

    const events = readFileSync(EVENT_LOG, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const count = (kind: string, tool: string, key: number) => events.filter(([k, t, n]) => k === kind && t === tool && Number(n) === key).length;
    expect(renders.map((t) => [t.key, last.get(t.key)!.status, last.get(t.key)!.error?.message, count('done', 'render', t.key)])).toEqual(renders.map((t) => [t.key, 'completed', undefined, 1]));
    for (const t of snapshots) {
      expect(count('start', 'snapshot', t.key)).toBe(1);
      const s = last.get(t.key)!;
      if (s.status !== 'completed') expect([s.status, s.error?.message]).toEqual(['failed', LOST_WORKER_MESSAGE]);
    }
    const ranOn = (key: number) => events.filter(([k, t, n]) => k === 'start' && t === 'render' && Number(n) === key).map((e) => e[3]);
    process.stderr.write(`[tasks-overlapping-terminations] render runs: ${renders.map((t) => ranOn(t.key).join('→')).join(', ')}\n`);
  }, 120_000);
});
