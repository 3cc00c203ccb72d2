// Tasks across instances: two processes of the generated jobs server (its own main.js, configured only by
// the environment) share a Redis task store — standalone, Sentinel and Cluster (shared-redis.ts) — behind nginx, which routes on the standard Mcp-Method header —
// tools/call to instance A, everything else (tasks/get, tasks/update, tasks/cancel, discovery) to B. So a task
// created and run on A is polled, answered and cancelled through B; the X-Served-By header nginx adds proves
// which instance answered each leg.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { TaskState } from '../../packages/runtime-client/src/index.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { freePort, waitFor } from '../support/ports.js';
import { sharedTopology, TOPOLOGIES } from '../support/shared-redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

let nginx: Nginx;
const ports: Record<'A' | 'B', number> = { A: 0, B: 0 };
const instances: HttpProcess[] = [];
const clients: JobsClientType[] = [];
/** Each request through the balancer: its JSON-RPC method and the instance (port) that answered it. */
const legs: { method: string; port: number }[] = [];

const routed: typeof fetch = async (input, init) => {
  const method = typeof init?.body === 'string' ? String((JSON.parse(init.body) as { method?: unknown }).method) : '';
  const response = await fetch(input, init);
  legs.push({ method, port: Number((response.headers.get('x-served-by') ?? '').split(':').at(-1)) });
  return response;
};

const portsOf = (method: string) => [...new Set(legs.filter((l) => l.method === method).map((l) => l.port))];

async function connect(options: Parameters<typeof JobsClient.connect>[1] = {}): Promise<JobsClientType> {
  const client = await JobsClient.connect({ url: nginx.url, fetch: routed }, options);
  clients.push(client);
  return client;
}

describe.each(TOPOLOGIES)('tasks across instances (Redis task store on %s)', (name) => {
  beforeAll(async () => {
    const { env } = await sharedTopology(name);
    legs.length = 0;
    instances.length = 0;
    for (const id of ['A', 'B'] as const) {
      ports[id] = await freePort();
      const p = await startScript(compiledMain('jobs'), [], { port: ports[id], env: { ...env, INSTANCE_ID: id } });
      instances.push(p);
      await waitFor(() => p.stderr().includes('redis connected'));
    }
    nginx = await startNginx({
      upstreams: { a: [ports.A], b: [ports.B] },
      backend: '$mcp_pool',
      extra: ['  map $http_mcp_method $mcp_pool { "tools/call" a; default b; }', '  add_header X-Served-By $upstream_addr always;'].join('\n'),
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    nginx?.stop();
    await Promise.allSettled(instances.map((p) => p.stop('SIGKILL')));
  });

  it('a task created and run on A is polled through B to its result', async () => {
    legs.length = 0;
    const client = await connect();
    const result = await client.render({ frames: 5, frameMs: 30 });
    expect(result.structuredContent).toEqual({ frames: 5, servedBy: 'A' });
    expect(portsOf('tools/call')).toEqual([ports.A]);
    expect(portsOf('tasks/get')).toEqual([ports.B]);
  });

  it('input asked on A is answered through B (tasks/update) and reaches the handler on A', async () => {
    legs.length = 0;
    const client = await connect({ onElicit: () => ({ action: 'accept', content: { confirm: true } }) });
    const result = await client.purge({ dataset: 'shared' });
    expect(result.structuredContent).toEqual({ dataset: 'shared', purged: true, servedBy: 'A' });
    expect(portsOf('tasks/update')).toEqual([ports.B]);
    expect(portsOf('tools/call')).toEqual([ports.A]);
  });

  it('a cancel through B stops the handler running on A', async () => {
    legs.length = 0;
    const client = await connect();
    const { task } = await client.startTask('render', { frames: 1000, frameMs: 20 });
    const running = await task!.status();
    expect(running.status).toBe('working');
    await task!.cancel();
    expect(portsOf('tasks/cancel')).toEqual([ports.B]);
    // Terminal for every instance: the handler on A (which reports a status message per frame) writes no more.
    const after: TaskState = await task!.status();
    expect(after.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    expect(await task!.status()).toEqual(after);
  });

  it('an AbortSignal through the balancer cancels the task on A as well', async () => {
    legs.length = 0;
    const client = await connect();
    const stop = new AbortController();
    const call = client.render({ frames: 1000, frameMs: 20 }, { signal: stop.signal });
    await waitFor(() => legs.some((l) => l.method === 'tasks/get'));
    stop.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => legs.some((l) => l.method === 'tasks/cancel'));
    expect(portsOf('tasks/cancel')).toEqual([ports.B]);
  });
});
