// Dynamic discovery across instances (issue 29 item 2): the generated hub's own main.js twice (A and B),
// configured only through the environment (REDIS_URL), a real redis-server, and nginx in front. A header
// picks the instance (X-Instance: A or B; without it, round robin), so the test knows where each request
// lands. The caller enables a toolset through A; a listen stream held on B hears tools/list_changed;
// tools/list and tools/call through B (and round robin) see the enabled tools. Without auth the principal is
// anonymous: everyone shares one enabled set, in Redis. Behind auth (two in-process instances with a test
// verifier, the same Redis and nginx) the set and the notification are the principal's alone.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpgenServer, createRedisDiscoveryStore, createRedisEventBus, InvalidTokenError, type AuthPrincipal, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { DISCOVERY_HANDLERS, DISCOVERY_SPEC, INITIAL_TOOLS, WITH_REPOS } from '../support/discovery-hub.js';
import { generateAndCompile } from '../support/generated-package.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { freePort, waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { redisCli } from '../support/redis-topologies.js';
import { sharedTopology } from '../support/shared-redis.js';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/discovery-interop');
const MAIN = join(DIR, 'js/main.js');

let redis: RedisServer;
let nginx: Nginx;
const processes: HttpProcess[] = [];
const clients: Client[] = [];
const closers: (() => Promise<unknown>)[] = [];

/** An official client through nginx, pinned to 2026-07-28, counting the tools/list_changed it hears. */
async function client(headers: Record<string, string>): Promise<{ client: Client; heard: () => number }> {
  const c = new Client({ name: 'discovery-interop', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  let heard = 0;
  c.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
  await c.connect(new StreamableHTTPClientTransport(new URL(nginx.url), { requestInit: { headers } }));
  clients.push(c);
  return { client: c, heard: () => heard };
}

const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { text?: string }[])[0]?.text;
const settle = () => new Promise((r) => setTimeout(r, 300));

/** The in-process pair behind auth: each instance its own bus and store, both on the same Redis. */
async function authedInstance(definition: ServerDefinition, handlers: object, port: number): Promise<void> {
  const principal = (subject: string): AuthPrincipal => ({ subject, clientId: 'app', scopes: [], claims: { sub: subject }, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  const verifier = {
    async verify(token: string) {
      if (token !== 'alice' && token !== 'bob') throw new InvalidTokenError('Unknown token');
      return principal(token);
    },
  };
  const bus = await createRedisEventBus({ url: redis.url, serverName: 'hub-authed' });
  await bus.ready();
  const discoveryStore = createRedisDiscoveryStore({ url: redis.url, serverName: 'hub-authed' });
  const def: ServerDefinition = { ...definition, auth: { authorizationServers: ['https://as.example'], scopes: {}, requiredScopes: [] } };
  const running = await createMcpgenServer(def, handlers, { bus, discoveryStore, auth: { verifier, resource: 'http://hub.test/mcp' } }).listen({ port });
  closers.push(() => running.close(100), () => bus.close(), () => discoveryStore.close());
}

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'hub', DISCOVERY_SPEC, { 'handlers.ts': DISCOVERY_HANDLERS });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
  redis = await startRedis();
  const [a, b, c, d] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  for (const [id, port] of [['A', a!], ['B', b!]] as const) {
    const p = await startScript(MAIN, [], { port, env: { INSTANCE_ID: id, REDIS_URL: redis.url } });
    processes.push(p);
    await waitFor(() => p.stderr().includes('redis connected'));
  }
  const { definition } = (await import(join(DIR, 'js/definition.js'))) as { definition: ServerDefinition };
  const { handlers } = (await import(join(DIR, 'js/handlers.js'))) as { handlers: object };
  await authedInstance(definition, handlers, c!);
  await authedInstance(definition, handlers, d!);
  nginx = await startNginx({
    upstreams: { a: [a!], b: [b!], pool: [a!, b!], c: [c!], d: [d!] },
    backend: '$instance',
    extra: '  map $http_x_instance $instance { A a; B b; C c; D d; default pool; }',
  });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(closers.map((close) => close()));
  nginx?.stop();
  await Promise.allSettled(processes.map((p) => p.stop('SIGKILL')));
  await redis?.kill();
});

/**
 * Enabled through A, heard on B's listen stream once, listed and called through B and round robin; the set in
 * Redis (one key, with a TTL; `ports`: the topology's nodes); disabled through B, gone for A's callers.
 */
async function enableThroughA(ports: readonly number[]): Promise<void> {
  const onA = await client({ 'x-instance': 'A' });
  const onB = await client({ 'x-instance': 'B' });
  const anywhere = await client({});
  await onB.client.listen({ toolsListChanged: true });
  expect(await toolNames(onB.client)).toEqual(INITIAL_TOOLS);
  await expect(onB.client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('Unknown tool: list_repos');

  const enabled = await onA.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } });
  expect(enabled.structuredContent).toEqual({ toolset: 'repos', changed: true, tools: ['list_repos', 'delete_repo'] });
  await waitFor(() => onB.heard() === 1);
  await settle();
  expect(onB.heard()).toBe(1); // once, though both instances' buses saw the event
  expect(await toolNames(onB.client)).toEqual(WITH_REPOS);
  expect(text(await onB.client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran on B');
  // Round robin: whichever instance answers, the same list and the call works.
  const served = new Set<string>();
  // (nginx alternates per request: lists and calls in separate runs, so each run reaches both instances.)
  for (let i = 0; i < 4; i++) expect(await toolNames(anywhere.client)).toEqual(WITH_REPOS);
  for (let i = 0; i < 4; i++) served.add(text(await anywhere.client.callTool({ name: 'delete_repo', arguments: {} }))!);
  expect(served).toEqual(new Set(['delete_repo ran on A', 'delete_repo ran on B']));

  // The set is in Redis (no instance holds it), with a TTL.
  const keys = [...new Set(ports.flatMap((port) => redisCli(port, 'KEYS', 'mcpgen:discovery:hub:*').split('\n').filter(Boolean)))];
  expect(keys).toHaveLength(1);
  // On a cluster only the master of the key's slot answers (the others say MOVED).
  const ask = (...args: string[]) => ports.map((port) => redisCli(port, ...args)).find((out) => !out.startsWith('MOVED'));
  expect(ask('SMEMBERS', keys[0]!)).toBe('repos');
  expect(Number(ask('TTL', keys[0]!))).toBeGreaterThan(0);

  // Disable through B: A's callers lose the tools at once.
  await onA.client.listen({ toolsListChanged: true });
  expect((await onB.client.callTool({ name: 'disable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: true });
  await waitFor(() => onA.heard() === 1 && onB.heard() === 2);
  expect(await toolNames(onA.client)).toEqual(INITIAL_TOOLS);
  await expect(onA.client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('Unknown tool: list_repos');
}

describe('dynamic discovery across two instances behind nginx with Redis', () => {
  it('enable through A: the listen stream on B hears list_changed, B lists and calls the new tools', async () => {
    await enableThroughA([redis.port]);
  }, 60_000);

  it('behind auth: alice enables through C; her stream on D hears it and D serves her the tools; bob on D neither', async () => {
    const aliceC = await client({ 'x-instance': 'C', authorization: 'Bearer alice' });
    const aliceD = await client({ 'x-instance': 'D', authorization: 'Bearer alice' });
    const bobD = await client({ 'x-instance': 'D', authorization: 'Bearer bob' });
    await Promise.all([aliceD.client.listen({ toolsListChanged: true }), bobD.client.listen({ toolsListChanged: true })]);
    expect((await aliceC.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: true });
    await waitFor(() => aliceD.heard() === 1);
    await settle();
    expect(aliceD.heard()).toBe(1);
    expect(bobD.heard()).toBe(0);
    expect(await toolNames(aliceD.client)).toEqual(WITH_REPOS);
    expect(await toolNames(bobD.client)).toEqual(INITIAL_TOOLS);
    expect(text(await aliceD.client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran');
    await expect(bobD.client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('Unknown tool: list_repos');
  }, 60_000);

  it('Redis down: tools/list and calls of discoverable tools fail (never a guess), the always-visible tools still work; back: as before', async () => {
    const onA = await client({ 'x-instance': 'A' });
    expect((await onA.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } })).isError).toBeFalsy();
    await redis.kill();
    await expect(onA.client.listTools()).rejects.toThrow(/discovery store unavailable|Internal error/);
    const refused = await onA.client.callTool({ name: 'list_repos', arguments: {} }).then((r) => r.isError, () => true);
    expect(refused).toBe(true);
    expect(text(await onA.client.callTool({ name: 'whoami', arguments: {} }))).toBe('whoami ran on A');
    await redis.start();
    // A restarted redis-server without persistence has lost the set: the caller starts over with the initial toolsets.
    await waitFor(async () => (await onA.client.listTools().then((r) => r.tools.length, () => 0)) > 0, 20_000);
    expect(await toolNames(onA.client)).toEqual(INITIAL_TOOLS);
    expect((await onA.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: true });
    expect(await toolNames(onA.client)).toEqual(WITH_REPOS);
  }, 60_000);
});

// The same on the topologies managed Redis runs (shared-redis.ts): A and B on Sentinel, then on a Cluster.
describe.each(['sentinel', 'cluster'] as const)('dynamic discovery across two instances behind nginx, Redis on %s', (name) => {
  let own: HttpProcess[] = [];
  let ownNginx: Nginx | undefined;
  let ports: readonly number[] = [];
  let saved: Nginx;
  beforeAll(async () => {
    const topology = await sharedTopology(name);
    ports = topology.ports;
    const [a, b] = await Promise.all([freePort(), freePort()]);
    own = await Promise.all([['A', a!], ['B', b!]].map(([id, port]) => startScript(MAIN, [], { port: port as number, env: { ...topology.env, INSTANCE_ID: id as string } })));
    await waitFor(() => own.every((p) => p.stderr().includes('redis connected')), 20_000);
    ownNginx = await startNginx({ upstreams: { a: [a!], b: [b!], pool: [a!, b!] }, backend: '$instance', extra: '  map $http_x_instance $instance { A a; B b; default pool; }' });
    // client() goes through `nginx`: this block's, the file's own again after it.
    saved = nginx;
    nginx = ownNginx;
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    nginx = saved;
    ownNginx?.stop();
    await Promise.allSettled(own.map((p) => p.stop('SIGKILL')));
  });

  it('enable through A: the listen stream on B hears list_changed, B lists and calls the new tools', async () => {
    await enableThroughA(ports);
  }, 60_000);
});
