// The task runner behind tools with `task:`: the handler's ctx.signal aborts on tasks/cancel and at the
// TTL (no onHandlerError report for either), ctx.progress becomes the statusMessage, `beforeTask` keys
// are asked by MRTR before the task exists, and the server uses the task store it is given.
import { describe, expect, it } from 'vitest';
import { createMcpgenServer, MemoryTaskStore, type ServerDefinition, type TaskRecord, type ToolContext } from '../../packages/runtime/src/server/index.js';
import { mcpRequest } from '../support/mcp-request.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const settings = (ttlMs = 60_000, more: object = {}) => ({ support: 'optional' as const, ttlMs, pollIntervalMs: 50, ...more });
const tool = (name: string, task: ServerDefinition['tools'][number]['task'], elicit: ServerDefinition['tools'][number]['elicit'] = {}) => ({
  definition: { name, inputSchema: { type: 'object' as const } },
  method: name,
  headers: [],
  elicit,
  ...(task !== undefined ? { task } : {}),
});
const definition: ServerDefinition = {
  info: { name: 'tasks-unit', version: '1.0.0' },
  capabilities: { tools: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [
    tool('wait', settings()),
    tool('short', settings(300)),
    tool('progress', settings()),
    tool('boom', settings()),
    tool('ask_again', settings(), { confirm: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } }),
    tool('ask_first', settings(60_000, { beforeTask: ['name'] }), { name: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } }),
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

const aborted: Record<string, unknown> = {};
const waitForAbort = (key: string, ctx: ToolContext) =>
  new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => {
    aborted[key] = ctx.signal.reason;
    resolve('stopped');
  }));
let release: () => void = () => {};
const handlers = {
  wait: (_: unknown, ctx: ToolContext) => waitForAbort('wait', ctx),
  short: (_: unknown, ctx: ToolContext) => waitForAbort('short', ctx),
  async progress(_: unknown, ctx: ToolContext) {
    await ctx.progress(1, 2, 'half way');
    await new Promise<void>((r) => (release = r));
    return 'done';
  },
  boom() {
    throw new Error('secret detail');
  },
  ask_again: (_: unknown, ctx: ToolContext<{ confirm: { ok?: boolean } }>) => {
    const r = ctx.elicit.confirm.response;
    return r?.action === 'accept' ? `ok=${String(r.content.ok)}` : ctx.elicit.confirm.ask({ message: r === undefined ? 'Sure?' : 'Really?' });
  },
  ask_first: (_: unknown, ctx: ToolContext<{ name: { name?: string } }>) => {
    const r = ctx.elicit.name.response;
    return r?.action === 'accept' ? `hi ${r.content.name}` : 'no name';
  },
};

const reports: string[] = [];
const created: TaskRecord[] = [];
class CountingStore extends MemoryTaskStore {
  override async create(record: TaskRecord): Promise<void> {
    created.push(record);
    await super.create(record);
  }
}
const server = createMcpgenServer(definition, handlers, { taskStore: new CountingStore(), onHandlerError: (_e, where) => reports.push(where) }).http();
const META = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS]: {} } } };

async function rpc(method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, any>; error?: { code: number } }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const name = typeof params.taskId === 'string' ? params.taskId : undefined;
  const response = await server.fetch(mcpRequest(method, params, { meta: META, ...(name !== undefined ? { name } : {}) }));
  return response.json() as never;
}
const start = async (name: string, extra: Record<string, unknown> = {}) => (await rpc('tools/call', { name, arguments: {}, ...extra })).result!;
const get = async (taskId: string) => (await rpc('tasks/get', { taskId })).result!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(taskId: string, ok: (t: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const t = await get(taskId);
    if (ok(t)) return t;
    await sleep(20);
  }
  throw new Error(`task ${taskId} never got there`);
}

describe('task runner', () => {
  it('tasks/cancel aborts the handler signal; the task stays cancelled and nothing is reported', async () => {
    const task = await start('wait');
    expect(task.resultType).toBe('task');
    await rpc('tasks/cancel', { taskId: task.taskId });
    await until(task.taskId, () => aborted.wait !== undefined);
    expect(String(aborted.wait)).toContain('task cancelled');
    await sleep(50);
    expect((await get(task.taskId)).status).toBe('cancelled');
    expect(reports).not.toContain('tool wait');
  });

  it('at its TTL the handler signal aborts and the task is gone', async () => {
    const task = await start('short');
    expect(task.ttlMs).toBe(300);
    await sleep(450);
    expect(String(aborted.short)).toContain('task expired');
    expect((await rpc('tasks/get', { taskId: task.taskId })).error?.code).toBe(-32602);
  });

  it('ctx.progress inside a task sets the statusMessage', async () => {
    const task = await start('progress');
    const seen = await until(task.taskId, (t) => t.statusMessage !== undefined);
    expect(seen).toMatchObject({ status: 'working', statusMessage: 'half way' });
    release();
    expect(await until(task.taskId, (t) => t.status === 'completed')).toMatchObject({ result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('an unexpected throw completes with isError (details reported, not sent), as a synchronous call would', async () => {
    const task = await start('boom');
    const done = await until(task.taskId, (t) => t.status !== 'working');
    expect(done).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'Tool boom failed' }] } });
    expect(JSON.stringify(done)).not.toContain('secret detail');
    expect(reports).toContain('tool boom');
  });

  it('beforeTask keys are asked by MRTR on tools/call; the answered call becomes a task that sees the answer', async () => {
    const first = await start('ask_first');
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
    expect(first).not.toHaveProperty('taskId');
    const task = await start('ask_first', { inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } });
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(task).not.toHaveProperty('requestState');
    expect(await until(task.taskId, (t) => t.status === 'completed')).toMatchObject({ result: { content: [{ type: 'text', text: 'hi Ada' }] } });
  });

  it('subscriptions/listen with taskIds: ack naming the live tasks of the caller, the current state, then each status change', async () => {
    const task = await start('progress');
    await until(task.taskId, (t) => t.statusMessage !== undefined);
    const response = await server.fetch(mcpRequest('subscriptions/listen', { notifications: { taskIds: [task.taskId, 'no-such-task'] } }, { meta: META }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const frames: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    let text = '';
    const next = async () => {
      while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      const [frame, ...rest] = text.split('\n\n');
      text = rest.join('\n\n');
      frames.push(JSON.parse(frame!.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
      return frames.at(-1)!;
    };
    expect(await next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [task.taskId] } } });
    expect(await next()).toMatchObject({ method: 'notifications/tasks', params: { taskId: task.taskId, status: 'working', statusMessage: 'half way' } });
    release();
    expect(await next()).toMatchObject({ method: 'notifications/tasks', params: { taskId: task.taskId, status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } } });
    await reader.cancel();
  });

  it('subscriptions/listen with taskIds from a client without the extension is -32021', async () => {
    const response = await server.fetch(mcpRequest('subscriptions/listen', { notifications: { taskIds: ['x'] } }));
    expect(((await response.json()) as { error: { code: number; data: unknown } }).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });

  it('a key asked again after an answer gets a fresh wire key (never reused); the answer reaches the handler under its own key', async () => {
    const task = await start('ask_again');
    const first = await until(task.taskId, (t) => t.status === 'input_required');
    expect(Object.keys(first.inputRequests as object)).toEqual(['confirm']);
    await rpc('tasks/update', { taskId: task.taskId, inputResponses: { confirm: { action: 'decline' } } });
    const second = await until(task.taskId, (t) => t.status === 'input_required' && !Object.hasOwn(t.inputRequests as object, 'confirm'));
    expect(second.inputRequests).toMatchObject({ 'confirm~2': { params: { message: 'Really?' } } });
    // Answers under the renamed key are still checked against the tool's schema for `confirm`.
    expect((await rpc('tasks/update', { taskId: task.taskId, inputResponses: { 'confirm~2': { action: 'accept', content: { ok: 'yes' } } } })).error?.code).toBe(-32602);
    await rpc('tasks/update', { taskId: task.taskId, inputResponses: { 'confirm~2': { action: 'accept', content: { ok: true } } } });
    expect(await until(task.taskId, (t) => t.status === 'completed')).toMatchObject({ result: { content: [{ type: 'text', text: 'ok=true' }] } });
  });

  it('the given taskStore holds the records', async () => {
    // Its own task, so the test holds in any order of the file's tests (it once read the tasks the tests before it made).
    const before = created.length;
    const task = await start('boom');
    expect(created.slice(before).map((r) => [r.toolName, r.taskId])).toEqual([['boom', task.taskId]]);
    await until(task.taskId, (t) => t.status === 'completed');
  });
});

describe('tasks belong to the principal that created them (spec with auth:)', () => {
  const verifier = { verify: async (token: string) => ({ subject: token, clientId: 'c', scopes: [], claims: {}, expiresAt: undefined }) };
  const secured: ServerDefinition = { ...definition, auth: { authorizationServers: ['https://id.example.com'], scopes: {}, requiredScopes: [] } };
  const guarded = createMcpgenServer(secured, handlers, { auth: { verifier } }).http();
  const as = async (who: string, method: string, params: Record<string, unknown>) => {
    const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const response = await guarded.fetch(mcpRequest(method, params, { meta: META, headers: { authorization: `Bearer ${who}` }, ...(name !== undefined ? { name } : {}) }));
    return (await response.json()) as { result?: Record<string, any>; error?: { code: number } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it('another principal gets -32602 on tasks/get, tasks/update and tasks/cancel; the owner reads it', async () => {
    const created = (await as('alice', 'tools/call', { name: 'wait', arguments: {} })).result!;
    expect(created.resultType).toBe('task');
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) expect((await as('bob', method, { taskId: created.taskId, inputResponses: {} })).error?.code, method).toBe(-32602);
    expect((await as('alice', 'tasks/get', { taskId: created.taskId })).result?.status).toBe('working');
    await as('alice', 'tasks/cancel', { taskId: created.taskId });
  });
});
