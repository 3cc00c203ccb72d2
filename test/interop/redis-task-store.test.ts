// The Redis task store in process, two store instances (as two server instances would hold) against a real
// redis-server: durable create, compare-and-set updates that refuse terminal tasks, expiry, events seen by
// both instances once, garbage on the channel ignored, Redis killed and restarted.
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, parseTaskMessage, type RedisTaskStore } from '../../packages/runtime/src/server/tasks/redis-store.js';
import type { TaskEvent, TaskRecord } from '../../packages/runtime/src/server/tasks/store.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
const stores: RedisTaskStore[] = [];
const states: string[] = [];
let next = 0;

async function store(prefix: string): Promise<{ store: RedisTaskStore; heard: TaskEvent[] }> {
  const s = await createRedisTaskStore({ url: redis.url, prefix, onStateChange: (state) => states.push(state) });
  stores.push(s);
  await s.ready();
  const heard: TaskEvent[] = [];
  s.subscribe((e) => heard.push(e));
  return { store: s, heard };
}

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return { taskId: `task-${++next}-${Math.random().toString(36).slice(2)}`, toolName: 'slow', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 50, ...overrides };
}

const settle = () => new Promise((r) => setTimeout(r, 150));

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.kill();
});

describe('Redis task store', () => {
  it('a task created on one instance is readable on the other as soon as create resolves, byte-exact', async () => {
    const [a, b] = await Promise.all([store('p1'), store('p1')]);
    const r = record({ owner: 'alice' });
    await a.store.create(r);
    expect(await b.store.get(r.taskId)).toEqual(r);
    // Results keep empty arrays and big numbers exactly (no Lua JSON round trip).
    const result = { content: [], structuredContent: { n: 12345678901234567, list: [], x: 0.1 + 0.2 } };
    const done = await b.store.update(r.taskId, { status: 'completed', result });
    expect(done?.result).toEqual(result);
    expect(await a.store.get(r.taskId)).toMatchObject({ status: 'completed', result });
    expect(await a.store.get('no-such-task')).toBeUndefined();
    await expect(a.store.create(r)).rejects.toThrow(/already exists/);
  });

  it('refuses to patch a terminal task, from either instance', async () => {
    const [a, b] = await Promise.all([store('p2'), store('p2')]);
    const r = record();
    await a.store.create(r);
    expect(await a.store.update(r.taskId, { status: 'cancelled' })).toMatchObject({ status: 'cancelled' });
    expect(await b.store.update(r.taskId, { status: 'completed', result: { content: [] } })).toBeUndefined();
    expect(await a.store.update(r.taskId, { statusMessage: 'late' })).toBeUndefined();
    expect(await b.store.get(r.taskId)).toMatchObject({ status: 'cancelled' });
    expect((await b.store.get(r.taskId))?.result).toBeUndefined();
    expect(await b.store.update('no-such-task', { status: 'working' })).toBeUndefined();
  });

  it('compare-and-set: of concurrent terminal updates from two instances exactly one wins', async () => {
    const [a, b] = await Promise.all([store('p3'), store('p3')]);
    for (let round = 0; round < 10; round++) {
      const r = record();
      await a.store.create(r);
      const outcomes = await Promise.all([
        a.store.update(r.taskId, { status: 'completed', result: { content: [], from: 'a' } }),
        b.store.update(r.taskId, { status: 'cancelled' }),
        a.store.update(r.taskId, { statusMessage: 'step' }),
      ]);
      const terminal = outcomes.slice(0, 2).filter((o) => o !== undefined);
      expect(terminal).toHaveLength(1);
      const stored = await b.store.get(r.taskId);
      expect(stored?.status).toBe(terminal[0]?.status);
    }
    // Non-terminal patches are never lost: each of 20 concurrent ones lands.
    const r = record();
    await a.store.create(r);
    const messages = Array.from({ length: 20 }, (_, i) => `m${i}`);
    const results = await Promise.all(messages.map((m, i) => (i % 2 ? a : b).store.update(r.taskId, { statusMessage: m })));
    expect(results.every((x) => x !== undefined)).toBe(true);
    expect(messages).toContain((await a.store.get(r.taskId))?.statusMessage);
  });

  it('keeps the expiry through updates and forgets the task ttlMs after createdAt', async () => {
    const [a, b] = await Promise.all([store('p4'), store('p4')]);
    const r = record({ ttlMs: 2_000 });
    await a.store.create(r);
    expect(await b.store.update(r.taskId, { statusMessage: 'still going' })).toBeDefined();
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const pttl = await raw.pTTL(`p4:task:${r.taskId}`);
    await raw.close();
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(2_000);
    await waitFor(async () => (await a.store.get(r.taskId)) === undefined, 5_000);
    expect(await b.store.get(r.taskId)).toBeUndefined();
    expect(await b.store.update(r.taskId, { status: 'completed' })).toBeUndefined();
    // A record already past its TTL (clock skew between instances) is not even written as live.
    const old = record({ createdAt: new Date(Date.now() - 10_000).toISOString(), ttlMs: 1_000 });
    await a.store.create(old).catch(() => {});
    expect(await b.store.get(old.taskId)).toBeUndefined();
  });

  it('delivers status, cancel and input events once to every instance, and only on its prefix', async () => {
    const [a, b, other] = await Promise.all([store('p5'), store('p5'), store('p5-other')]);
    const r = record();
    await a.store.create(r);
    await b.store.update(r.taskId, { status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?' } } } });
    await b.store.publish({ type: 'input', taskId: r.taskId, responses: { confirm: { action: 'accept' } } });
    await a.store.publish({ type: 'cancel', taskId: r.taskId });
    await b.store.update(r.taskId, { statusMessage: 'no status change, no event' });
    await waitFor(() => a.heard.length === 3 && b.heard.length === 3);
    await settle();
    for (const x of [a, b]) {
      expect(x.heard.map((e) => e.type)).toEqual(expect.arrayContaining(['status', 'input', 'cancel']));
      expect(x.heard).toHaveLength(3);
      expect(x.heard.find((e) => e.type === 'status')).toMatchObject({ record: { taskId: r.taskId, status: 'input_required' } });
      expect(x.heard.find((e) => e.type === 'input')).toEqual({ type: 'input', taskId: r.taskId, responses: { confirm: { action: 'accept' } } });
    }
    expect(other.heard).toEqual([]);
    // An unsubscribed listener hears nothing more.
    const late: TaskEvent[] = [];
    const off = a.store.subscribe((e) => late.push(e));
    off();
    await b.store.publish({ type: 'cancel', taskId: r.taskId });
    await waitFor(() => a.heard.length === 4);
    expect(late).toEqual([]);
  });

  it('ignores what is not a valid message of its format on the channel', async () => {
    const { heard } = await store('p6');
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const garbage = [
      'not json',
      JSON.stringify({ v: 2, from: 'x', event: { type: 'cancel', taskId: 't' } }),
      JSON.stringify({ v: 1, from: 'x', event: { type: 'cancel', taskId: '' } }),
      JSON.stringify({ v: 1, from: 'x', event: { type: 'input', taskId: 't', responses: [] } }),
      JSON.stringify({ v: 1, from: 'x', event: { type: 'status', record: { taskId: 't', status: 'sleeping' } } }),
      JSON.stringify({ v: 1, from: 'x', event: { type: 'explode' } }),
    ];
    for (const g of garbage) await raw.publish('p6:events', g);
    await raw.publish('p6:events', JSON.stringify({ v: 1, from: 'x', event: { type: 'cancel', taskId: 'real' } }));
    await waitFor(() => heard.length > 0);
    await settle();
    expect(heard).toEqual([{ type: 'cancel', taskId: 'real' }]);
    // A stored entry of another format reads as unknown.
    await raw.set('p6:task:foreign', JSON.stringify({ v: 9, record: {} }));
    expect(await stores.at(-1)!.get('foreign')).toBeUndefined();
    await raw.close();
    expect(parseTaskMessage(JSON.stringify({ v: 1, from: 'me', event: { type: 'cancel', taskId: 't' } }), 'me')).toBe('own');
  });

  it('opens no connection until it is used (a server without task tools gets one from REDIS_URL too)', async () => {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const clients = async () => String(await raw.sendCommand(['CLIENT', 'LIST'])).trim().split('\n').length;
    const before = await clients();
    const idle = await createRedisTaskStore({ url: redis.url, prefix: 'p8' });
    stores.push(idle);
    await settle();
    expect(await clients()).toBe(before);
    expect(await idle.get('nothing')).toBeUndefined();
    await idle.ready();
    expect(await clients()).toBe(before + 2);
    await idle.close();
    await raw.close();
  });

  it('Redis killed: calls fail fast instead of hanging; restarted: both instances reconnect and resubscribe, old tasks are gone', async () => {
    const [a, b] = await Promise.all([store('p7'), store('p7')]);
    const r = record();
    await a.store.create(r);
    await redis.kill();
    await waitFor(() => states.includes('disconnected'));
    const started = Date.now();
    await expect(a.store.create(record())).rejects.toThrow();
    await expect(b.store.get(r.taskId)).rejects.toThrow();
    await expect(b.store.publish({ type: 'cancel', taskId: r.taskId })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
    // The publishing instance's own listeners heard the cancel although Redis was down.
    expect(b.heard).toContainEqual({ type: 'cancel', taskId: r.taskId });

    await redis.start();
    const fresh = record();
    await waitFor(async () => a.store.create(fresh).then(() => true, () => false), 10_000);
    // Each instance reconnects on its own schedule: wait for B's too (it once answered ECONNREFUSED here).
    await waitFor(async () => b.store.get(fresh.taskId).then(() => true, () => false), 10_000);
    // No persistence in this Redis: the task from before the restart is gone, like an expired one.
    expect(await b.store.get(r.taskId)).toBeUndefined();
    expect(await b.store.get(fresh.taskId)).toEqual(fresh);
    const before = a.heard.length;
    await waitFor(async () => {
      await b.store.publish({ type: 'cancel', taskId: fresh.taskId }).catch(() => {});
      await settle();
      return a.heard.length > before;
    }, 10_000);
    expect(a.heard.at(-1)).toEqual({ type: 'cancel', taskId: fresh.taskId });
  });
});
