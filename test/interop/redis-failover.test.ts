// A master SIGKILLed while task writes flow: the client follows the replica Sentinel or the cluster promotes,
// commands fail fast (never hang) during the window, the health state (readiness) comes back after promotion,
// and the window is measured (docs/scale-out.md, "Managed Redis").
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, openRedis, type RedisSettings } from '../../packages/runtime/src/server/index.js';
import type { TaskRecord } from '../../packages/runtime/src/server/tasks/store.js';
import { waitFor } from '../support/ports.js';
import { startRedisCluster, startRedisSentinel, type RedisNodeProcess } from '../support/redis-topologies.js';

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

const nodes = (list: string) => list.split(',').map((a) => ({ host: a.split(':')[0]!, port: Number(a.split(':')[1]) }));

const topologies: Record<string, () => Promise<{ settings: RedisSettings; master: () => RedisNodeProcess }>> = {
  sentinel: async () => {
    const s = await startRedisSentinel();
    stops.push(() => s.stop());
    return { settings: { topology: 'sentinel', sentinels: nodes(s.addresses), masterName: s.masterName }, master: () => s.master };
  },
  cluster: async () => {
    const c = await startRedisCluster();
    stops.push(() => c.stop());
    // The master holding the task keys (all in the slot of the server's hash tag).
    return { settings: { topology: 'cluster', nodes: nodes(c.seeds) }, master: () => c.masterOf('{mcpgen:tasks:failover}') };
  },
};

function record(taskId: string): TaskRecord {
  const now = new Date().toISOString();
  return { taskId, toolName: 'render', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 120_000 };
}

describe.each(Object.keys(topologies))('failover on %s', (name) => {
  it('the master SIGKILLed under writes: fail fast during the window, then follow the promoted replica', async () => {
    const { settings, master } = await topologies[name]!();
    const states: string[] = [];
    const redis = openRedis(settings, { onStateChange: (state) => void states.push(state) });
    stops.push(redis.retain());
    const store = await createRedisTaskStore({ redis, serverName: 'failover' });
    await store.ready();
    const outcomes: { at: number; ok: boolean; ms: number }[] = [];
    let n = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        const t0 = Date.now();
        const id = `t-${++n}`;
        // A failed read after a good write is a failure too (not a crash of this loop, which then stopped counting).
        const ok = await store.create(record(id)).then(async () => (await store.get(id))?.taskId === id).catch(() => false);
        outcomes.push({ at: t0, ok, ms: Date.now() - t0 });
        await new Promise((r) => setTimeout(r, ok ? 20 : 100));
      }
    })();
    // A cluster just made may take a while until every node agrees on the slots: bounded by count, not a tight clock.
    await waitFor(() => outcomes.filter((o) => o.ok).length >= 10, 60_000);
    const killedAt = Date.now();
    await master().kill();
    await waitFor(() => outcomes.some((o) => o.at > killedAt && !o.ok), 20_000);
    await waitFor(() => outcomes.filter((o) => o.at > killedAt && o.ok).length >= 10 && redis.up(), 60_000);
    running = false;
    await load;
    const after = outcomes.filter((o) => o.at >= killedAt);
    const firstFailure = after.find((o) => !o.ok)!;
    const lastFailure = [...after].reverse().find((o) => !o.ok)!;
    const windowMs = lastFailure.at + lastFailure.ms - killedAt;
    // Fail fast: no command waited past the command deadline (2 s) plus the first-connection wait.
    expect(Math.max(...after.map((o) => o.ms))).toBeLessThan(5_000);
    expect(states).toContain('disconnected');
    expect(states.at(-1)).toBe('connected');
    console.log(`${name} failover: first failure ${firstFailure.at - killedAt} ms after the kill, writes back ${windowMs} ms after it; ${after.filter((o) => !o.ok).length} failed, slowest ${Math.max(...after.map((o) => o.ms))} ms`);
  }, 120_000);
});
