// Issue 31, re-runs for authenticated callers: two in-process instances of the jobs server with `auth:` (a test
// token verifier) share a real redis-server. Ann's `render` task (task.retry) starts on A; A "crashes" (its store
// closes: no lease renewal, no writes); B runs the task again with Ann's principal as ctx.auth — the principal
// stored with the task, never the token — and Ann polls it to the result through B while Bob cannot see it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { createMcpgenServer, InvalidTokenError, type AuthPrincipal, type RunningServer, type ServerDefinition, type TokenVerifier } from '../../packages/runtime/src/server/index.js';
import { createRedisTaskStore, type RedisTaskStore } from '../../packages/runtime/src/server/tasks/redis-store.js';
import { mcpRequest } from '../support/mcp-request.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { importCompiled } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');
const { definition } = await importCompiled<{ definition: ServerDefinition }>('jobs', 'definition.js');

const LEASE_MS = 900;
const PREFIX = 'auth-rerun';
const TOKENS: Record<string, AuthPrincipal> = {
  'ann-secret-token': { subject: 'ann', clientId: 'app', scopes: ['jobs.run'], claims: { sub: 'ann', email: 'ann@example.test' }, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  'bob-secret-token': { subject: 'bob', clientId: 'app', scopes: ['jobs.run'], claims: { sub: 'bob' }, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
};
const verifier: TokenVerifier = {
  async verify(token) {
    const p = TOKENS[token];
    if (p === undefined) throw new InvalidTokenError('Unknown token');
    return p;
  },
};
const withAuth: ServerDefinition = {
  ...definition,
  auth: { authorizationServers: ['http://127.0.0.1:9'], scopes: { 'jobs.run': 'Run jobs' }, requiredScopes: ['jobs.run'] },
  tools: definition.tools.map((t) => (t.method === 'render' ? { ...t, task: { ...t.task!, retry: { max: 1 } } } : t)),
};
/** Who each run's handler saw as ctx.auth, per instance. */
const runs: { instance: string; auth: AuthPrincipal | undefined }[] = [];

let redis: RedisServer;
const stores: RedisTaskStore[] = [];
const servers: RunningServer[] = [];
const clients: JobsClientType[] = [];

async function instance(id: string, render: (args: { frames: number }, ctx: { auth?: AuthPrincipal; signal: AbortSignal }) => Promise<unknown>): Promise<{ store: RedisTaskStore; url: string }> {
  const store = await createRedisTaskStore({ url: redis.url, prefix: PREFIX, onStateChange: () => {} });
  await store.ready();
  stores.push(store);
  const handlers = { render: async (args: { frames: number }, ctx: { auth?: AuthPrincipal; signal: AbortSignal }) => (runs.push({ instance: id, auth: ctx.auth }), render(args, ctx)) };
  const server = createMcpgenServer(withAuth, handlers, { taskStore: store, taskLeaseMs: LEASE_MS, onHandlerError: () => {} });
  const running = await server.listen({ port: 0, auth: { verifier, resource: 'http://jobs.test/mcp', onError: () => {} } });
  servers.push(running);
  return { store, url: running.url };
}

/** One tasks/get with a bearer token: the JSON-RPC answer (JSON or a one-event SSE stream). */
async function getTask(url: string, token: string, taskId: string): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const meta = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
  const response = await fetch(mcpRequest('tasks/get', { taskId }, { url, meta, name: taskId, headers: { authorization: `Bearer ${token}` } }));
  const text = await response.text();
  const json = text.trimStart().startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { message: string } };
}

const as = (token: string): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization: `Bearer ${token}` } });

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.race([Promise.allSettled(clients.map((c) => c.close())), new Promise((r) => setTimeout(r, 1_000))]);
  await Promise.allSettled(servers.map((s) => s.close(0)));
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.kill();
});

describe('a re-runnable task of an authenticated caller whose instance is lost', () => {
  it('runs again on a survivor as the same principal (ctx.auth), and stays invisible to others', async () => {
    // A's handler never finishes by itself; B's answers with who it ran as.
    const a = await instance('A', (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))));
    const b = await instance('B', async ({ frames }, ctx) => ({ frames, servedBy: `B as ${ctx.auth?.subject}` }));
    await new Promise((r) => setTimeout(r, LEASE_MS + 100)); // leases are judged after a whole lease period connected
    const annOnA = await JobsClient.connect({ url: a.url, fetch: as('ann-secret-token') });
    clients.push(annOnA);
    const { task } = await annOnA.startTask('render', { frames: 3 });
    await waitFor(() => runs.length === 1);
    await a.store.close(); // "crash": A renews no lease and writes nothing more
    // Ann polls through B (every poll answered) until the re-run on B completes.
    let final = await getTask(b.url, 'ann-secret-token', task!.taskId);
    for (const until = Date.now() + 10_000; final.result?.status === 'working' && Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      final = await getTask(b.url, 'ann-secret-token', task!.taskId);
    }
    expect(final.result).toMatchObject({ status: 'completed', result: { structuredContent: { frames: 3, servedBy: 'B as ann' } } });
    expect(runs.map((r) => [r.instance, r.auth])).toEqual([['A', TOKENS['ann-secret-token']], ['B', TOKENS['ann-secret-token']]]);
    // The stored record holds the principal, never the token.
    const stored = JSON.stringify(await b.store.get(task!.taskId));
    expect(stored).toContain('ann@example.test');
    expect(stored).not.toContain('ann-secret-token');
    // Bob cannot see Ann's task through B.
    expect((await getTask(b.url, 'bob-secret-token', task!.taskId)).error?.message).toMatch(/Unknown task/);
  }, 30_000);
});
