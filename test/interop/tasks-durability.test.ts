// Issue 31: task results survive Redis outages, and tasks whose instance died are not abandoned. Runners in
// this process over a real redis-server (with persistence, so a killed and restarted Redis keeps its keys):
// a result reached while Redis is down is written once it is back; a task whose owner vanished is ended
// `failed` with the lost-worker error by a surviving runner within 4/3 of the lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, type RedisTaskStore } from '../../packages/runtime/src/server/tasks/redis-store.js';
import { LOST_WORKER_MESSAGE, TaskRunner, type TaskStep } from '../../packages/runtime/src/server/tasks/runner.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
const stores: RedisTaskStore[] = [];
const runners: TaskRunner[] = [];
const errors: string[] = [];
let n = 0;

async function instance(prefix: string, options: ConstructorParameters<typeof TaskRunner>[2] = {}): Promise<{ store: RedisTaskStore; runner: TaskRunner }> {
  const store = await createRedisTaskStore({ url: redis.url, prefix, onStateChange: () => {} });
  stores.push(store);
  await store.ready();
  const runner = new TaskRunner(store, (e, where) => errors.push(`${where}: ${e instanceof Error ? e.message : String(e)}`), options);
  runners.push(runner);
  return { store, runner };
}

/** A handler that finishes when `finish` is called. */
function gated(): { step: TaskStep; finish: (result: Record<string, unknown>) => void; started: Promise<void> } {
  let finish!: (r: Record<string, unknown>) => void;
  let began!: () => void;
  const started = new Promise<void>((r) => (began = r));
  const done = new Promise<Record<string, unknown>>((r) => (finish = r));
  return { finish, started, step: async () => (began(), { kind: 'result', result: await done }) };
}

const settings = { support: 'optional' as const, ttlMs: 120_000 };

beforeAll(async () => {
  redis = await startRedis({ persist: true });
});

afterAll(async () => {
  for (const r of runners) r.close();
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.kill();
});

describe('task results through a Redis outage', () => {
  it('a result reached while Redis is down for 5 s is written once it is back', async () => {
    const prefix = `durable-${++n}`;
    const a = await instance(prefix, { resultRetryMs: 20_000 });
    const b = await instance(prefix);
    const handler = gated();
    const record = await a.runner.start({ toolName: 'slow', settings, inputResponses: undefined, requestState: undefined, step: handler.step });
    await handler.started;
    await redis.kill();
    handler.finish({ content: [{ type: 'text', text: 'done' }], structuredContent: { value: 42 } });
    await new Promise((r) => setTimeout(r, 5_000));
    expect(errors.some((e) => e.includes('retrying for up to 20000 ms'))).toBe(true);
    await redis.start();
    const back = Date.now();
    // Read through the other instance's store, as a client polling another instance would.
    await waitFor(async () => (await b.store.get(record.taskId))?.status === 'completed', 10_000);
    const final = await b.store.get(record.taskId);
    expect(final?.result).toEqual({ content: [{ type: 'text', text: 'done' }], structuredContent: { value: 42 } });
    // Written within the longest backoff step (1 s) plus reconnecting.
    expect(Date.now() - back).toBeLessThan(5_000);
    expect(errors.some((e) => e.includes('is lost'))).toBe(false);
  }, 30_000);
});

describe('tasks whose owner is gone', () => {
  it('a surviving runner ends the dead owner\'s task failed with the lost-worker error within 4/3 of the lease', async () => {
    const prefix = `lease-${++n}`;
    const leaseMs = 900;
    const owner = await instance(prefix, { leaseMs });
    const survivor = await instance(prefix, { leaseMs });
    const handler = gated();
    const record = await owner.runner.start({ toolName: 'slow', settings, inputResponses: undefined, requestState: undefined, step: handler.step });
    await handler.started;
    // The survivor judges leases only after a whole lease period of its own calls succeeding.
    await new Promise((r) => setTimeout(r, leaseMs + 100));
    // "Crash": the owner stops renewing and never writes again (its store is closed, not retired).
    await owner.store.close();
    const died = Date.now();
    await waitFor(async () => (await survivor.store.get(record.taskId))?.status === 'failed', 10_000);
    const detected = Date.now() - died;
    const final = await survivor.store.get(record.taskId);
    expect(final?.error?.message).toBe(LOST_WORKER_MESSAGE);
    expect(detected).toBeLessThanOrEqual((leaseMs * 4) / 3 + 500);
    process.stderr.write(`[tasks-durability] lost owner detected after ${detected} ms (lease ${leaseMs} ms)\n`);
  }, 30_000);

  it('a live owner\'s task is left alone, however long it runs', async () => {
    const prefix = `lease-${++n}`;
    const leaseMs = 600;
    const owner = await instance(prefix, { leaseMs });
    await instance(prefix, { leaseMs });
    const handler = gated();
    const record = await owner.runner.start({ toolName: 'slow', settings, inputResponses: undefined, requestState: undefined, step: handler.step });
    await new Promise((r) => setTimeout(r, leaseMs * 4));
    expect((await owner.store.get(record.taskId))?.status).toBe('working');
    handler.finish({ content: [] });
    await waitFor(async () => (await owner.store.get(record.taskId))?.status === 'completed');
  }, 30_000);
});
