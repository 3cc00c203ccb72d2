// Issue 30: a shared rate limit counted in chunks (packages/runtime/src/server/ops/rate-reserve.ts). Three
// counters stand for three instances sharing one store — the real rate-limiter-flexible memory limiter, or a
// fixed-window store with a hand-moved clock — and the totals are checked: never more than the limit, at
// most instances × (chunk − 1) less, one store call per chunk (per request under 200), one reservation for
// concurrent requests, budgets ending with the store's window, unspent points given back at close.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { chunkFor, ReservingCounter, type PointStore, type StoreResult, type Taken } from '../../packages/runtime/src/server/ops/rate-reserve.js';

/** Counts the store's calls. */
function counted(store: PointStore): PointStore & { calls: number; rewarded: number } {
  const out = {
    calls: 0,
    rewarded: 0,
    consume: (key: string, points: number) => (out.calls++, store.consume(key, points)),
    reward: (key: string, points: number) => ((out.rewarded += points), store.reward(key, points)),
  };
  return out;
}

/** A fixed-window store on a clock the test moves (what RateLimiterRedis does with a key's TTL). */
function windowStore(limit: number, windowMs: number, clock: { now: number }): PointStore & { used: (key: string) => number } {
  const keys = new Map<string, { consumed: number; endsAt: number }>();
  const entry = (key: string) => {
    let e = keys.get(key);
    if (e === undefined || clock.now >= e.endsAt) keys.set(key, (e = { consumed: 0, endsAt: clock.now + windowMs }));
    return e;
  };
  return {
    used: (key) => entry(key).consumed,
    async consume(key, points) {
      const e = entry(key);
      e.consumed += points;
      const res: StoreResult = { consumedPoints: e.consumed, msBeforeNext: e.endsAt - clock.now };
      if (e.consumed > limit) throw Object.assign(new Error('refused'), res);
      return res;
    },
    async reward(key, points) {
      entry(key).consumed -= points;
    },
  };
}

const take = async (c: ReservingCounter, key: string): Promise<Taken> => c.take(key);

/** `calls` requests of `key`, spread over the counters in turn: how many were accepted. */
async function acceptedOf(counters: readonly ReservingCounter[], calls: number, key: string): Promise<number> {
  let accepted = 0;
  for (let i = 0; i < calls; i++) if ((await take(counters[i % counters.length]!, key)) === undefined) accepted++;
  return accepted;
}

describe('reserving points of a shared limit', () => {
  it('takes 1 % of the limit at a time, at most 64 points; under 200 one point at a time', () => {
    expect([1, 150, 199, 200, 1000, 6400, 1e6].map(chunkFor)).toEqual([1, 1, 1, 2, 10, 64, 64]);
  });

  it('three instances sharing the real limiter: never above the limit, at most 3 × (chunk − 1) below, one store call per chunk', async () => {
    const store = counted(new RateLimiterMemory({ points: 1000, duration: 60 }));
    const instances = [0, 1, 2].map(() => new ReservingCounter(store, 1000));
    const accepted = await acceptedOf(instances, 1500, 'caller');
    expect(accepted).toBeLessThanOrEqual(1000);
    expect(accepted).toBeGreaterThanOrEqual(1000 - 3 * 9);
    // 100 chunks of 10 fill the window; after that each instance refuses locally without asking again.
    expect(store.calls).toBeLessThanOrEqual(1000 / 10 + 3);
  });

  it('counts a limit under 200 exactly, one store call per request', async () => {
    const store = counted(new RateLimiterMemory({ points: 150, duration: 60 }));
    const instances = [0, 1, 2].map(() => new ReservingCounter(store, 150));
    const accepted = await acceptedOf(instances, 300, 'caller');
    expect(accepted).toBe(150);
    expect(store.calls).toBe(300);
  });

  it('concurrent requests of one key wait for one reservation; other keys have their own budgets', async () => {
    const store = counted(new RateLimiterMemory({ points: 6400, duration: 60 }));
    const counter = new ReservingCounter(store, 6400);
    const results = await Promise.all(Array.from({ length: 64 }, () => take(counter, 'a')));
    expect(results.every((r) => r === undefined)).toBe(true);
    expect(store.calls).toBe(1);
    await take(counter, 'a'); // the 65th: a second chunk
    await take(counter, 'b');
    expect(store.calls).toBe(3);
    expect(counter.size).toBe(2);
  });

  it('a full window is refused locally until the store\'s window ends, then a new budget is reserved', async () => {
    const clock = { now: 0 };
    const store = counted(windowStore(400, 60_000, clock));
    const counter = new ReservingCounter(store, 400, { now: () => clock.now });
    for (let i = 0; i < 400; i++) expect(await take(counter, 'k')).toBeUndefined();
    expect(store.calls).toBe(100); // chunks of 4
    clock.now = 20_000;
    expect(await take(counter, 'k')).toBe(40_000); // refused: the rest of the window, in ms
    expect(store.calls).toBe(101); // the store said "full" once...
    expect(await take(counter, 'k')).toBe(40_000);
    expect(store.calls).toBe(101); // ...and is not asked again in this window
    clock.now = 60_000;
    expect(await take(counter, 'k')).toBeUndefined();
    expect(store.calls).toBe(102);
  });

  it('hands out the last points of a window that cannot fill a chunk, and no more', async () => {
    const clock = { now: 0 };
    const store = windowStore(1000, 60_000, clock);
    const other = new ReservingCounter(store, 1000, { now: () => clock.now });
    const counter = new ReservingCounter(store, 1000, { now: () => clock.now });
    for (let i = 0; i < 995; i++) await store.consume('k', 1); // what the other instances spent
    const accepted = await acceptedOf([counter, other], 20, 'k');
    expect(accepted).toBe(5);
  });

  it('gives unspent points back at close while the window has time left, and lets requests through when the store fails', async () => {
    const clock = { now: 0 };
    const shared = windowStore(1000, 60_000, clock);
    const store = counted(shared);
    const counter = new ReservingCounter(store, 1000, { now: () => clock.now });
    for (let i = 0; i < 3; i++) await take(counter, 'k');
    await counter.refund();
    expect(store.rewarded).toBe(7);
    expect(shared.used('k')).toBe(3);
    expect(counter.size).toBe(0);
    const broken = new ReservingCounter({ consume: () => Promise.reject(new Error('down')), reward: async () => {} }, 1000);
    expect(await take(broken, 'k')).toBeUndefined();
    expect(broken.size).toBe(0);
  });
});
