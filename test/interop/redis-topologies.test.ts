// Every Redis use of an instance — the event bus, the task store (records, queue, owner leases), the discovery
// store and the shared rate limit — on the three topologies managed Redis runs: a standalone server, a master
// behind Sentinel (1 replica, 3 sentinels) and a Redis Cluster (3 masters, 3 replicas), each started here on
// loopback ports once for the run (shared-redis.ts). Two layers stand for two server instances; what one writes or publishes the other sees.
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisDiscoveryStore, createRedisEventBus, createRedisTaskStore, openRedis, type RedisLayer, type RedisSettings } from '../../packages/runtime/src/server/index.js';
import { createRateLimiter } from '../../packages/runtime/src/server/ops/rate-limit.js';
import type { TaskRecord } from '../../packages/runtime/src/server/tasks/store.js';
import { waitFor } from '../support/ports.js';
import { sharedTopology, TOPOLOGIES, type TopologyName } from '../support/shared-redis.js';
import { compiledMain, importCompiled, startScript } from '../support/servers.js';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

const start = (name: TopologyName) => sharedTopology(name);

function layer(settings: RedisSettings): RedisLayer {
  const l = openRedis(settings, { onStateChange: () => {} });
  stops.push(l.retain());
  return l;
}

function record(taskId: string): TaskRecord {
  const now = new Date().toISOString();
  return { taskId, toolName: 'render', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000 };
}

describe.each(TOPOLOGIES)('every Redis use on %s', (name) => {
  it('bus, task store, queue, leases, discovery and a shared rate limit across two instances', async () => {
    const { settings } = await start(name);
    const [a, b] = [layer(settings), layer(settings)];
    await Promise.all([a.connected, b.connected]);
    expect(a.up() && b.up()).toBe(true);

    // The event bus: a listener on B hears what A published (sharded pub/sub on a cluster).
    const [busA, busB] = await Promise.all([createRedisEventBus({ redis: a, serverName: 'topo' }), createRedisEventBus({ redis: b, serverName: 'topo' })]);
    stops.push(() => busA.close(), () => busB.close());
    const heard: ServerEvent[] = [];
    busB.subscribe((e) => heard.push(e));
    await busB.listening();
    busA.publish({ kind: 'resource_updated', uri: 'inventory://items/1' });
    await waitFor(() => heard.length === 1, 5_000);

    // The task store: created on A, read and updated on B, its status event heard on A; queue and leases in one slot.
    const [tasksA, tasksB] = await Promise.all([createRedisTaskStore({ redis: a, serverName: 'topo' }), createRedisTaskStore({ redis: b, serverName: 'topo' })]);
    stops.push(() => tasksA.close(), () => tasksB.close());
    await Promise.all([tasksA.ready(), tasksB.ready()]);
    const statuses: string[] = [];
    tasksA.subscribe((e) => e.type === 'status' && statuses.push(e.record.status));
    await tasksA.create(record('t-1'));
    expect((await tasksB.get('t-1'))?.status).toBe('working');
    expect((await tasksB.update('t-1', { status: 'completed', result: { content: [] } }))?.status).toBe('completed');
    await waitFor(() => statuses.includes('completed'), 5_000);
    await tasksA.queue!.createQueued(record('t-2'));
    expect(await tasksB.queue!.take()).toBe('t-2');
    await tasksA.liveness!.renew(60_000);
    await tasksA.liveness!.own('t-3');
    expect(await tasksB.liveness!.claimLost()).toEqual([]); // A's lease is alive
    await tasksA.liveness!.retire();
    expect(await tasksB.liveness!.claimLost()).toEqual(['t-3']);

    // The discovery store: a toolset enabled through A is enabled on B.
    const [discA, discB] = [createRedisDiscoveryStore({ redis: a, serverName: 'topo' }), createRedisDiscoveryStore({ redis: b, serverName: 'topo' })];
    await discA.enable('alice', 'admin');
    expect([...(await discB.enabled('alice'))]).toEqual(['admin']);

    // A shared rate limit: 3 calls per minute for one caller, whichever instance serves them.
    const [limitA, limitB] = await Promise.all([createRateLimiter({ server: { points: 3, durationSeconds: 60 }, redis: a }, 'topo'), createRateLimiter({ server: { points: 3, durationSeconds: 60 }, redis: b }, 'topo')]);
    stops.push(() => limitA.close(), () => limitB.close());
    const verdicts = [await limitA.check('p:carol', undefined), await limitB.check('p:carol', undefined), await limitA.check('p:carol', undefined), await limitB.check('p:carol', undefined)];
    expect(verdicts.map((v) => (v === undefined ? 'ok' : 'refused'))).toEqual(['ok', 'ok', 'ok', 'refused']);
  }, 120_000);

  it('generated servers (main.js) configured by the environment: ready, and a task runs through it', async () => {
    const { env } = await start(name);
    const [a, b] = await Promise.all(['A', 'B'].map((id) => startScript(compiledMain('jobs'), [], { env: { ...env, INSTANCE_ID: id } })));
    stops.push(() => a!.stop('SIGKILL'), () => b!.stop('SIGKILL'));
    await waitFor(() => a!.stderr().includes('redis connected') && b!.stderr().includes('redis connected'), 20_000);
    expect(a!.stderr()).toContain(`redis connected (${name}`);
    const client = await JobsClient.connect({ url: a!.url });
    stops.push(() => client.close());
    expect((await client.render({ frames: 3, frameMs: 20 })).structuredContent).toMatchObject({ frames: 3, servedBy: 'A' });
    for (const p of [a!, b!]) expect((await fetch(`${new URL(p.url).origin}/readyz`)).status).toBe(200);
  }, 60_000);
});
