// The in-memory task store (the default behind the TaskStore contract): compare-and-set on terminal
// records, status events to every subscriber, TTL expiry, a bound on how many records it keeps.
import { describe, expect, it } from 'vitest';
import { MemoryTaskStore } from '../../packages/runtime/src/server/tasks/memory-store.js';
import type { TaskEvent, TaskRecord } from '../../packages/runtime/src/server/tasks/store.js';

const T0 = Date.parse('2026-07-28T00:00:00Z');
const record = (taskId: string, ttlMs = 1_000): TaskRecord => ({ taskId, toolName: 't', status: 'working', createdAt: new Date(T0).toISOString(), lastUpdatedAt: new Date(T0).toISOString(), ttlMs });

describe('MemoryTaskStore', () => {
  it('reads what it stored; update patches, stamps lastUpdatedAt and announces a status change', async () => {
    let now = T0;
    const store = new MemoryTaskStore({ now: () => now });
    const events: TaskEvent[] = [];
    store.subscribe((e) => events.push(e));
    await store.create(record('a'));
    expect((await store.get('a'))?.status).toBe('working');
    now += 10;
    const msg = await store.update('a', { statusMessage: 'half way' });
    expect(msg).toMatchObject({ statusMessage: 'half way', lastUpdatedAt: new Date(T0 + 10).toISOString() });
    expect(events).toEqual([]); // no status change, no event
    const done = await store.update('a', { status: 'completed', result: { content: [] } });
    expect(events).toEqual([{ type: 'status', record: done }]);
  });

  it('refuses to change a terminal record (compare-and-set) and an unknown one', async () => {
    const store = new MemoryTaskStore({ now: () => T0 });
    await store.create(record('a'));
    await store.update('a', { status: 'cancelled' });
    expect(await store.update('a', { status: 'completed', result: {} })).toBeUndefined();
    expect((await store.get('a'))?.status).toBe('cancelled');
    expect(await store.update('nope', { status: 'working' })).toBeUndefined();
  });

  it('forgets a record ttlMs after createdAt, not before', async () => {
    let now = T0;
    const store = new MemoryTaskStore({ now: () => now });
    await store.create(record('a', 1_000));
    now = T0 + 999;
    expect(await store.get('a')).toBeDefined();
    now = T0 + 1_000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.update('a', { statusMessage: 'late' })).toBeUndefined();
  });

  it('publishes cancel and input events to every subscriber until it unsubscribes', async () => {
    const store = new MemoryTaskStore();
    const a: TaskEvent[] = [];
    const b: TaskEvent[] = [];
    store.subscribe(() => {
      throw new Error('a failing listener does not stop the others');
    });
    const offA = store.subscribe((e) => a.push(e));
    store.subscribe((e) => b.push(e));
    await store.publish({ type: 'cancel', taskId: 'x' });
    offA();
    await store.publish({ type: 'input', taskId: 'x', responses: { k: { action: 'decline' } } });
    expect(a).toEqual([{ type: 'cancel', taskId: 'x' }]);
    expect(b).toHaveLength(2);
  });

  it('keeps at most maxRecords, dropping the oldest', async () => {
    const store = new MemoryTaskStore({ now: () => T0, maxRecords: 2 });
    for (const id of ['a', 'b', 'c']) await store.create(record(id));
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('c')).toBeDefined();
  });
});
