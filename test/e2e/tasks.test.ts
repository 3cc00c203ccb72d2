// Tasks (io.modelcontextprotocol/tasks, SEP-2663) end to end: the generated everything server over
// Streamable HTTP and stdio, called through the official SDK's client transports. SDK 2.4.0 has no client
// API for tasks (its Client refuses a tools/call answered with resultType "task", and tasks/list or
// tasks/result before sending), so the JSON-RPC requests are written here and carried by the SDK's
// StreamableHTTPClientTransport / StdioClientTransport (which add Mcp-Method and Mcp-Name themselves);
// tasks/get through the SDK Client's own request() is checked once.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer, ServerDefinition } from '@mcpgen/runtime/server';
import { mcpRequest } from '../support/mcp-request.js';
import { compiledMain, importCompiled, startHttp, type HttpProcess } from '../support/servers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** Standard Schema that accepts any result unchanged. */
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Json }) } };

interface RawTransport {
  start(): Promise<void>;
  send(message: Json): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: Json) => void;
}

/** JSON-RPC requests with the 2026-07-28 envelope, over an SDK client transport. */
class Peer {
  #next = 1;
  readonly #pending = new Map<number, { resolve: (v: Json) => void; reject: (e: unknown) => void }>();
  constructor(
    private readonly transport: RawTransport,
    private readonly extensions: boolean,
  ) {
    transport.onmessage = (m) => {
      const waiter = this.#pending.get(m.id as number);
      if (waiter === undefined) return;
      this.#pending.delete(m.id as number);
      if (m.error !== undefined) waiter.reject(m.error);
      else waiter.resolve(m.result as Json);
    };
  }
  static async open(target: { url: string } | 'stdio', extensions = true): Promise<Peer> {
    const transport = (target === 'stdio' ? new StdioClientTransport({ command: process.execPath, args: [compiledMain('everything')], stderr: 'ignore' }) : new StreamableHTTPClientTransport(new URL(target.url))) as unknown as RawTransport;
    await transport.start();
    return new Peer(transport, extensions);
  }
  request(method: string, params: Json = {}): Promise<Json> {
    const id = this.#next++;
    const capabilities = { elicitation: {}, ...(this.extensions ? { extensions: { [TASKS]: {} } } : {}) };
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'tasks-e2e', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }).catch(reject);
    });
  }
  close(): Promise<void> {
    return this.transport.close();
  }
}

const call = (c: Peer, name: string, args: Json = {}) => c.request('tools/call', { name, arguments: args });
const get = (c: Peer, taskId: string) => c.request('tasks/get', { taskId });
const update = (c: Peer, taskId: string, inputResponses: Json) => c.request('tasks/update', { taskId, inputResponses });
const cancel = (c: Peer, taskId: string) => c.request('tasks/cancel', { taskId });

async function until(c: Peer, taskId: string, done: (task: Json) => boolean, timeoutMs = 10_000): Promise<Json> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const task = await get(c, taskId);
    if (done(task)) return task;
    if (Date.now() > end) throw new Error(`task ${taskId} stuck at ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const terminal = (t: Json) => ['completed', 'failed', 'cancelled'].includes(t.status);

async function errorOf(p: Promise<unknown>): Promise<{ code?: number; data?: Json }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: number; data?: Json };
  }
  throw new Error('expected a JSON-RPC error');
}

let http: HttpProcess;
beforeAll(async () => {
  http = await startHttp('everything');
}, 60_000);
afterAll(async () => {
  await http?.stop();
});

for (const transport of ['http', 'stdio'] as const) {
  describe(`tasks over ${transport} with the official SDK client`, () => {
    let client: Peer;
    beforeAll(async () => {
      client = await Peer.open(transport === 'http' ? { url: http.url } : 'stdio');
    }, 30_000);
    afterAll(async () => {
      await client?.close();
    });

    it('announces the extension in server/discover', async () => {
      const discovered = await client.request('server/discover');
      expect(discovered.capabilities.extensions?.[TASKS]).toEqual({});
      expect(discovered.capabilities.tasks).toBeUndefined();
    });

    it('a task that completes: CreateTaskResult, then tasks/get inlines the result', async () => {
      const created = await call(client, 'slow_compute', { seconds: 0.3, label: 'e2e' });
      expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600000, pollIntervalMs: 200 });
      expect(Object.keys(created)).not.toContain('result');
      const working = await get(client, created.taskId);
      expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
      const done = await until(client, created.taskId, terminal);
      expect(done.status).toBe('completed');
      expect(done.result.content).toEqual([{ type: 'text', text: 'Computed e2e after 0.3 s' }]);
      expect(done).not.toHaveProperty('requestState');
    });

    it('a tool error is completed with isError; a JSON-RPC error is failed with the error inlined', async () => {
      const job = await call(client, 'failing_job');
      const protocol = await call(client, 'protocol_error_job');
      const [isError, failed] = await Promise.all([until(client, job.taskId, terminal), until(client, protocol.taskId, terminal)]);
      expect(isError).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'failing_job: the job failed' }] } });
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'protocol_error_job: internal failure' } });
      expect(failed).not.toHaveProperty('result');
    });

    it('a task cancelled mid-run is cancelled at once; cancelling again is the same empty ack', async () => {
      const created = await call(client, 'slow_compute', { seconds: 30 });
      expect(await cancel(client, created.taskId)).toEqual(expect.objectContaining({ resultType: 'complete' }));
      const task = await get(client, created.taskId);
      expect(task.status).toBe('cancelled');
      // Idempotent on a terminal task.
      expect((await cancel(client, created.taskId)).resultType).toBe('complete');
    });

    it('a task that needs input mid-run: input_required, tasks/update, then completed with the answer', async () => {
      const created = await call(client, 'confirm_delete', { filename: 'a.txt' });
      const parked = await until(client, created.taskId, (t) => t.status !== 'working');
      expect(parked.status).toBe('input_required');
      expect(parked.inputRequests.confirm).toMatchObject({ method: 'elicitation/create', params: { mode: 'form', message: 'Delete a.txt?' } });
      // A malformed answer to the tool's own elicit key is -32602, as on an MRTR retry.
      expect((await errorOf(update(client, created.taskId, { confirm: { action: 'accept', content: { confirm: 'yes' } } }))).code).toBe(-32602);
      expect((await update(client, created.taskId, { confirm: { action: 'accept', content: { confirm: true } } })).resultType).toBe('complete');
      const done = await until(client, created.taskId, terminal);
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Deleted a.txt' }] } });
    });

    it('two pending inputs answered one at a time: the answered key leaves inputRequests at once', async () => {
      const created = await call(client, 'multi_input');
      const parked = await until(client, created.taskId, (t) => t.status !== 'working');
      expect(Object.keys(parked.inputRequests).sort()).toEqual(['confirm', 'name']);
      await update(client, created.taskId, { name: { action: 'accept', content: { name: 'Ada' } } });
      const half = await get(client, created.taskId);
      expect(half.status).toBe('input_required');
      expect(Object.keys(half.inputRequests)).toEqual(['confirm']);
      await update(client, created.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
      expect((await until(client, created.taskId, terminal)).result.content[0].text).toBe('Ada confirmed');
    });

    it('unknown task ids are -32602; removed methods are -32601', async () => {
      expect((await errorOf(get(client, 'no-such-task'))).code).toBe(-32602);
      for (const [method, params] of [['tasks/list', {}], ['tasks/result', { taskId: 'x' }]] as const) {
        if (transport === 'stdio') {
          expect((await errorOf(client.request(method, params))).code).toBe(-32601);
          continue;
        }
        // Over HTTP the SDK answers -32601 with status 404, which its client transport raises as an HTTP error: read it raw.
        const response = await fetch(mcpRequest(method, params, { url: http.url, ...('taskId' in params ? { name: params.taskId } : {}) }));
        expect(response.status).toBe(404);
        expect(((await response.json()) as Json).error.code).toBe(-32601);
      }
    });
  });
}

describe('the SDK Client itself', () => {
  it('reads a task with client.request(tasks/get) (its method gate lets the extension method through)', async () => {
    const peer = await Peer.open({ url: http.url });
    const client = new Client({ name: 'tasks-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [TASKS]: {} } } as never });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      const created = await call(peer, 'slow_compute', { seconds: 0.2, label: 'sdk' });
      const end = Date.now() + 10_000;
      let task = (await client.request({ method: 'tasks/get', params: { taskId: created.taskId } }, ANY)) as Json;
      while (task.status === 'working' && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        task = (await client.request({ method: 'tasks/get', params: { taskId: created.taskId } }, ANY)) as Json;
      }
      expect(task).toMatchObject({ taskId: created.taskId, status: 'completed', result: { content: [{ type: 'text', text: 'Computed sdk after 0.2 s' }] } });
    } finally {
      await client.close();
      await peer.close();
    }
  });
});

describe('tasks and clients that did not declare the extension', () => {
  it('a required-task tool is -32021 naming the extension; an optional one answers synchronously; tasks/* are -32021', async () => {
    const client = await Peer.open({ url: http.url }, false);
    try {
      const refused = await errorOf(call(client, 'failing_job'));
      expect(refused.code).toBe(-32021);
      expect(refused.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
      const sync = await call(client, 'slow_compute', { seconds: 0, label: 'sync' });
      expect(sync).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Computed sync after 0 s' }] });
      expect(sync).not.toHaveProperty('taskId');
      expect((await errorOf(get(client, 'x'))).code).toBe(-32021);
    } finally {
      await client.close();
    }
  });
});

describe('a task that outlives its TTL', () => {
  let running: RunningServer;
  beforeAll(async () => {
    const { definition } = await importCompiled<{ definition: ServerDefinition }>('everything', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: object }>('everything', 'handlers.js');
    const { createMcpgenServer } = await import('@mcpgen/runtime/server');
    // The same fixtures with a 400 ms TTL on slow_compute.
    const short: ServerDefinition = { ...definition, tools: definition.tools.map((t) => (t.definition.name === 'slow_compute' ? { ...t, task: { ...t.task!, ttlMs: 400 } } : t)) };
    running = await createMcpgenServer(short, handlers).listen({ port: 0 });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('is readable until ttlMs after creation, then unknown (-32602)', async () => {
    const client = await Peer.open({ url: running.url });
    try {
      const created = await call(client, 'slow_compute', { seconds: 30 });
      expect(created.ttlMs).toBe(400);
      expect((await get(client, created.taskId)).status).toBe('working');
      await new Promise((r) => setTimeout(r, 600));
      expect((await errorOf(get(client, created.taskId))).code).toBe(-32602);
    } finally {
      await client.close();
    }
  });
});
