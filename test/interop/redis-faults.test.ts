// The generated jobs server (its own main.js, configured by REDIS_URL) against a real redis-server in the three
// faults issue 25 items 10 and 12 name: Redis down at start, a wrong password, and an outage while a task reports
// progress. Each must be said on stderr (the state at start, then every change), task calls must name the task
// store in their error, and a progress line the store cannot take must never kill the handler.
// And readiness (issue 30 item 2): /readyz is 503 while Redis is unreachable and 200 again once it is back.
import { createClient } from '@redis/client';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { freePort, waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const processes: HttpProcess[] = [];
const redises: RedisServer[] = [];
const clients: JobsClientType[] = [];

async function serve(redisUrl: string): Promise<{ server: HttpProcess; client: JobsClientType }> {
  const server = await startScript(compiledMain('jobs'), [], { env: { REDIS_URL: redisUrl, INSTANCE_ID: 'A' } });
  processes.push(server);
  const client = await JobsClient.connect({ url: server.url });
  clients.push(client);
  return { server, client };
}

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(processes.map((p) => p.stop('SIGKILL')));
  await Promise.allSettled(redises.map((r) => r.kill()));
});

describe('Redis faults (generated jobs server)', () => {
  it('Redis down at start: said once at start (one Redis layer for every use); task calls name the task store', async () => {
    const port = await freePort(); // nothing listens there
    const { server, client } = await serve(`redis://127.0.0.1:${port}`);
    await waitFor(() => /redis disconnected: .*ECONNREFUSED/.test(server.stderr()));
    await expect(client.render({ frames: 1, frameMs: 1 })).rejects.toThrow(/task store \(Redis\) unavailable/);
    // One line per state, not one per reconnect attempt.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(server.stderr().match(/redis disconnected/g)).toHaveLength(1);
  });

  it('wrong password: said at start (without the password); task calls name the task store', async () => {
    const redis = await startRedis(['--requirepass', 'right-password']);
    redises.push(redis);
    const { server, client } = await serve(`redis://:not-the-password@127.0.0.1:${redis.port}`);
    await waitFor(() => /redis disconnected: .*WRONGPASS/.test(server.stderr()));
    expect(server.stderr()).not.toContain('not-the-password');
    await expect(client.render({ frames: 1, frameMs: 1 })).rejects.toThrow(/task store \(Redis\) unavailable: .*WRONGPASS/);
  });

  it('an outage while a task reports progress: the handler keeps working and its result arrives', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const { server, client } = await serve(redis.url);
    await waitFor(() => server.stderr().includes('redis connected'));
    const start = await client.startTask('render', { frames: 30, frameMs: 100 });
    if (!('task' in start) || start.task === undefined) throw new Error('render did not start a task');
    // A second task whose record Redis will forget (no persistence, nothing restores it).
    const forgotten = await client.startTask('render', { frames: 1, frameMs: 1 });
    if (!('task' in forgotten) || forgotten.task === undefined) throw new Error('render did not start a task');
    const key = `mcpgen:tasks:jobs:task:${start.task.taskId}`;
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await new Promise((r) => setTimeout(r, 400));
    const saved = await admin.get(key);
    expect(saved).not.toBeNull();
    admin.destroy();
    // Redis dies with no persistence; the handler reports progress several times while it is gone.
    await redis.kill();
    await waitFor(() => server.stderr().includes('redis disconnected'));
    await new Promise((r) => setTimeout(r, 600));
    await redis.start();
    // Put the record back (what persistence or a replica would have kept), so the task can complete.
    const restore = createClient({ url: redis.url });
    await restore.connect();
    await restore.set(key, saved!, { expiration: { type: 'PX', value: 60_000 } });
    restore.destroy();
    // Back: the second 'connected' line (the first was at start).
    await waitFor(() => (server.stderr().match(/redis connected/g) ?? []).length >= 2);
    const result = await start.task.result();
    expect(result.structuredContent).toEqual({ frames: 30, servedBy: 'A' });
    // Its record is gone with the restart: tasks/get says it may have been lost, not a bare "unknown task".
    await expect(forgotten.task.status()).rejects.toThrow(/Unknown task: .*may have been lost: Redis was unreachable until/);
    expect(server.stderr().match(/status message dropped/g)).toHaveLength(1);
    expect(server.stderr()).not.toMatch(/tool render/);
  }, 30_000);

  it('readiness: /readyz 503 while Redis is unreachable (liveness still 200), 200 again once it is back', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const server = await startScript(compiledMain('weather'), [], { env: { REDIS_URL: redis.url } });
    processes.push(server);
    const probe = async (path: string) => (await fetch(`${new URL(server.url).origin}${path}`, { signal: AbortSignal.timeout(5_000) })).status;
    await waitFor(async () => (await probe('/readyz')) === 200);
    await redis.kill();
    await waitFor(async () => (await probe('/readyz')) === 503);
    expect(await probe('/healthz')).toBe(200);
    await redis.start();
    await waitFor(async () => (await probe('/readyz')) === 200);
  });
});
