// Many instances on real infrastructure: the generated inventory server's own main.js, three
// processes configured only through the environment (REDIS_URL, MCPGEN_REQUEST_STATE_KEYS), Redis,
// and nginx round-robin in front with no affinity. Hosts talk only to the balancer.
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryClient as InventoryClientType } from '../../generated/inventory/client.js';
import type { ChangeNotification, Subscription } from '../../packages/runtime-client/src/index.js';
import { startNginx, type Nginx, type NginxOptions } from '../support/nginx.js';
import { freePort, waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { sharedTopology } from '../support/shared-redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';
import { mcpRequest } from '../support/mcp-request.js';

const { InventoryClient } = await importCompiled<{ InventoryClient: typeof InventoryClientType }>('inventory', 'client.js');
const K1 = 'k1:first-key-of-the-test-ring-32-bytes-long';
const K2 = 'k2:second-key-of-the-test-ring-32-bytes-long';
const IDS = ['A', 'B', 'C'] as const;
const SKUS = Array.from({ length: 40 }, (_, i) => `SKU-${i}`);

let redis: RedisServer;
/** The instances' Redis settings (REDIS_URL, or a shared Sentinel or Cluster below). */
let redisEnv: Record<string, string> = {};
let nginx: Nginx;
let ports: number[];
const instances = new Map<string, HttpProcess>();
const clients: InventoryClientType[] = [];

function start(id: string, port: number, keys: string): Promise<HttpProcess> {
  return startScript(compiledMain('inventory'), [], {
    port,
    env: { ...redisEnv, INSTANCE_ID: id, MCPGEN_REQUEST_STATE_KEYS: keys, MCPGEN_REQUEST_STATE_TTL_SECONDS: '3' },
  }).then(async (p) => {
    instances.set(id, p);
    // Listening comes first; the bus subscribes to the channel a moment later (it says so once).
    await waitFor(() => p.stderr().includes('redis connected'));
    return p;
  });
}

// No client keep-alive at the balancer: a graceful reload (the rolling restarts below) closes the idle
// keep-alive connections of nginx's old workers, and a client that wrote its next request on one of them
// would see the connection drop — a race of nginx reloads, not of the servers under test.
const pool = (down: number[] = []): NginxOptions => ({ upstreams: { pool: ports }, backend: 'pool', down, extra: '  keepalive_timeout 0;' });

async function connect(options: Parameters<typeof InventoryClient.connect>[1] = {}): Promise<InventoryClientType> {
  const client = await InventoryClient.connect({ url: nginx.url }, options);
  clients.push(client);
  return client;
}

const confirmingClient = () => connect({ onElicit: async () => ({ action: 'accept', content: { confirm: true } }) });

/** A listener through the balancer: every notification it hears, in order. */
async function listener(): Promise<{ heard: ChangeNotification[]; sub: Subscription }> {
  const client = await connect();
  const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: SKUS.map((s) => `inventory://items/${s}`) });
  const heard: ChangeNotification[] = [];
  void (async () => {
    for await (const n of sub) heard.push(n);
  })();
  return { heard, sub };
}

const updates = (heard: readonly ChangeNotification[]) => heard.flatMap((n) => (n.method === 'notifications/resources/updated' ? [n.uri] : []));

beforeAll(async () => {
  redis = await startRedis();
  redisEnv = { REDIS_URL: redis.url };
  ports = await Promise.all(IDS.map(() => freePort()));
  await Promise.all(IDS.map((id, i) => start(id, ports[i]!, K1)));
  nginx = await startNginx(pool());
  // Every instance's bus is subscribed once a restock on it reaches a listener (checked per test).
});

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  nginx?.stop();
  await Promise.allSettled([...instances.values()].map((p) => p.stop('SIGKILL')));
  await redis?.kill();
});

// MRTR first: the rolling restarts below must not cut listen streams of the notification tests.
describe('MRTR across instances (shared requestState keys)', () => {
  it('completes 100 confirmations whose two legs land on different instances', async () => {
    const client = await confirmingClient();
    let crossed = 0;
    for (let i = 0; i < 100; i++) {
      const r = await client.discontinue({ sku: `SKU-${i % 40}` });
      expect(r.isError).toBe(false);
      if (r.structuredContent!.askedBy !== r.structuredContent!.confirmedBy) crossed++;
    }
    // Sequential requests through a three-way round robin: the retry never lands where the question was asked.
    expect(crossed).toBeGreaterThanOrEqual(95);
  });

  it('refuses a tampered state or one replayed against another item, on any instance', async () => {
    // Raw requests: a well-behaved client never alters requestState, so this plays the attacker by hand.
    const call = async (sku: string, requestState?: string) => {
      const params = {
        name: 'discontinue',
        arguments: { sku },
        ...(requestState !== undefined ? { requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } } : {}),
      };
      const r = await fetch(mcpRequest('tools/call', params, { url: nginx.url, meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } }));
      const body = (await r.json()) as { result?: { resultType?: string; requestState?: string }; error?: { code: number } };
      return body.error !== undefined ? { code: body.error.code } : body.result!;
    };
    const first = (await call('SKU-1')) as { resultType?: string; requestState?: string };
    expect(first.resultType).toBe('input_required');
    const state = first.requestState!;
    const flipped = state.slice(0, 12) + (state[12] === 'A' ? 'B' : 'A') + state.slice(13);
    for (let i = 0; i < IDS.length; i++) {
      expect(await call('SKU-1', flipped)).toEqual({ code: -32602 });
      expect(await call('SKU-2', state)).toEqual({ code: -32602 });
    }
  });

  it('rotates keys with rolling restarts (add, promote, retire after the TTL) while confirmations run, dropping none', async () => {
    const client = await confirmingClient();
    let running = true;
    const failures: unknown[] = [];
    let done = 0;
    const load = (async () => {
      while (running) {
        try {
          const r = await client.discontinue({ sku: 'SKU-7' });
          if (r.isError) failures.push(r.content);
          done++;
        } catch (e) {
          failures.push(e);
        }
      }
    })();
    const roll = async (keys: string) => {
      for (const [i, id] of IDS.entries()) {
        const port = ports[i]!;
        await nginx.reload(pool([port])); // drain: the balancer stops sending new requests here
        await instances.get(id)!.stop('SIGTERM'); // in-flight requests finish
        await start(id, port, keys);
        await nginx.reload(pool());
      }
    };
    await roll(`${K1},${K2}`); // 1. the new key verifies everywhere; the old one still signs
    await roll(`${K2},${K1}`); // 2. the new key signs everywhere; the old one still verifies
    await new Promise((r) => setTimeout(r, 3_500)); // the TTL: every state signed by k1 has expired
    await roll(K2); // 3. retire the old key
    running = false;
    await load;
    expect(failures).toEqual([]);
    expect(done).toBeGreaterThan(20);
  }, 240_000);
});

/** Listeners on different instances each hear every restock and one tools/list_changed, exactly once. */
async function everyNotificationOnce(): Promise<void> {
  // Three listeners land round-robin: with three instances, listeners sit on different instances.
  const listeners = await Promise.all([listener(), listener(), listener()]);
  const caller = await connect();
  const served = new Set<string>();
  const skus = SKUS.slice(0, 12);
  for (const sku of skus) served.add((await caller.restock({ sku, units: 1 })).structuredContent!.servedBy);
  expect(served).toEqual(new Set(IDS)); // the calls themselves landed on every instance
  await waitFor(() => listeners.every((l) => updates(l.heard).length >= skus.length));
  await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
  // Exactly once each; the order may differ (an instance's own events reach its listeners before Redis echoes others').
  for (const l of listeners) expect(updates(l.heard).sort()).toEqual(skus.map((s) => `inventory://items/${s}`).sort());
  // A tools/list_changed from the confirmed call reaches them too, once each.
  const confirmer = await confirmingClient();
  expect((await confirmer.discontinue({ sku: 'SKU-0' })).isError).toBe(false);
  await waitFor(() => listeners.every((l) => l.heard.some((n) => n.method === 'notifications/tools/list_changed')));
  await new Promise((r) => setTimeout(r, 300));
  for (const l of listeners) expect(l.heard.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(1);
  await Promise.all(listeners.map((l) => l.sub.close()));
}

describe('change notifications across instances (Redis bus)', () => {
  it('delivers every notification exactly once to every listener, whichever instance each is on', async () => {
    await everyNotificationOnce();
  });

  it('drops garbage published on the channel: no client hears it, no server dies', async () => {
    const [l] = await Promise.all([listener()]);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const channel = 'mcpgen:events:inventory';
    const garbage = [
      'not json',
      '{"v":2,"from":"x","event":{"kind":"tools_list_changed"}}',
      '{"v":1,"event":{"kind":"tools_list_changed"}}',
      '{"v":1,"from":"x","event":{"kind":"shutdown"}}',
      '{"v":1,"from":"x","event":{"kind":"resource_updated"}}',
      '{"v":1,"from":"x","event":{"kind":"resource_updated","uri":42}}',
      '{"v":1,"from":"x","event":{"kind":"tools_list_changed","params":[1,2]}}',
      '[1,2,3]',
      'null',
      JSON.stringify({ v: 1, from: 'x', event: { kind: 'resource_updated', uri: `inventory://items/${'X'.repeat(70_000)}` } }),
    ];
    for (const g of garbage) await raw.publish(channel, g);
    await raw.close();
    const caller = await connect();
    await caller.restock({ sku: 'SKU-39', units: 1 });
    await waitFor(() => l!.heard.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(l!.heard).toEqual([{ method: 'notifications/resources/updated', uri: 'inventory://items/SKU-39' }]);
    for (const p of instances.values()) expect(p.child.exitCode).toBeNull();
    await l!.sub.close();
  });

  it('keeps serving calls while Redis is down, and listeners hear other instances again after it is back', async () => {
    const listeners = await Promise.all([listener(), listener(), listener()]);
    const caller = await connect();
    await redis.kill();
    for (let i = 0; i < 15; i++) expect((await caller.restock({ sku: 'SKU-20', units: 1 })).isError).toBe(false);
    await redis.start();
    // The buses reconnect and resubscribe by themselves; from then on every instance's events reach every listener.
    const before = listeners.map((l) => updates(l.heard).length);
    let n = 0;
    await waitFor(async () => {
      const sku = `SKU-${21 + (n++ % 3)}`;
      await caller.restock({ sku, units: 1 });
      return listeners.every((l, i) => updates(l.heard).slice(before[i]).filter((u) => u.endsWith(sku)).length > 0);
    }, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const mark = listeners.map((l) => l.heard.length);
    const skus = SKUS.slice(24, 30);
    for (const sku of skus) await caller.restock({ sku, units: 1 });
    await waitFor(() => listeners.every((l, i) => l.heard.length - mark[i]! >= skus.length));
    await new Promise((r) => setTimeout(r, 300));
    for (const [i, l] of listeners.entries()) expect(updates(l.heard.slice(mark[i])).sort()).toEqual(skus.map((s) => `inventory://items/${s}`).sort());
    for (const p of instances.values()) expect(p.child.exitCode).toBeNull();
    const stderr = [...instances.values()].map((p) => p.stderr()).join('');
    // One line per state change, not one per request.
    expect(stderr.match(/redis disconnected/g)?.length ?? 0).toBeLessThanOrEqual(IDS.length * 2);
    await Promise.all(listeners.map((l) => l.sub.close()));
  });
});

// The bus on the topologies managed Redis runs (shared-redis.ts): three fresh instances on Sentinel, then on a
// Cluster (sharded pub/sub), behind their own nginx; the file's standalone instances wait meanwhile.
describe.each(['sentinel', 'cluster'] as const)('change notifications across instances, Redis on %s', (name) => {
  let saved: { instances: [string, HttpProcess][]; nginx: Nginx; ports: number[]; env: Record<string, string> };
  let own: Nginx | undefined;
  beforeAll(async () => {
    saved = { instances: [...instances], nginx, ports, env: redisEnv };
    instances.clear();
    redisEnv = (await sharedTopology(name)).env;
    ports = await Promise.all(IDS.map(() => freePort()));
    await Promise.all(IDS.map((id, i) => start(id, ports[i]!, K1)));
    own = nginx = await startNginx(pool());
  }, 120_000);
  afterAll(async () => {
    own?.stop();
    await Promise.allSettled([...instances.values()].map((p) => p.stop('SIGKILL')));
    instances.clear();
    for (const [id, p] of saved.instances) instances.set(id, p);
    ({ nginx, ports, env: redisEnv } = saved);
  });

  it('delivers every notification exactly once to every listener, whichever instance each is on', async () => {
    await everyNotificationOnce();
  });
});
