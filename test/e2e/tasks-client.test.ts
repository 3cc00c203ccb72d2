// The generated jobs client against the generated jobs server (specs/jobs.yaml), over real HTTP and stdio:
// tools that run as tasks, followed by `client.<tool>()` transparently (tasks/get at the server's
// pollIntervalMs), answered mid-run through onElicit (tasks/update), cancelled by an AbortSignal
// (tasks/cancel), and driven by hand through startTask's TaskHandle.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { ProtocolError, type ClientOptions, type TaskState } from '../../packages/runtime-client/src/index.js';
import { readFileSync } from 'node:fs';
import { createAjv } from '../../packages/runtime/src/shared/ajv.js';
import { ROOT } from '../support/root.js';
import { compiledMain, importCompiled, startHttp, type HttpProcess } from '../support/servers.js';
import { tappedFetch, tappedTransport, WireLog } from '../support/wire.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');
type Transport = 'http' | 'stdio';

const running: HttpProcess[] = [];
const clients: JobsClientType[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

async function connect(transport: Transport, options: ClientOptions = {}): Promise<{ client: JobsClientType; log: WireLog }> {
  const log = new WireLog();
  let client: JobsClientType;
  if (transport === 'http') {
    const server = await startHttp('jobs');
    running.push(server);
    client = await JobsClient.connect({ url: server.url, fetch: tappedFetch(log, []) }, options);
  } else {
    const inner = new StdioClientTransport({ command: process.execPath, args: [compiledMain('jobs')], stderr: 'ignore' });
    client = await JobsClient.connect({ transport: tappedTransport(inner, log) }, options);
  }
  clients.push(client);
  return { client, log };
}

/** The client→server requests of one method, in order. */
const sent = (log: WireLog, method: string) => log.entries.filter((e) => e.direction === 'client→server' && e.message.method === method).map((e) => e.message as { params: Record<string, unknown> });
/** The task answers (resultType "task") the server gave to tools/call. */
const taskAnswers = (log: WireLog) => log.entries.flatMap((e) => ((e.message.result as { resultType?: string } | undefined)?.resultType === 'task' ? [e.message.result as TaskState] : []));

// The extension's own schema (vendored draft of ext-tasks) for the task messages on the wire.
const tasksAjv = createAjv({ strict: false });
tasksAjv.addSchema({ ...JSON.parse(readFileSync(`${ROOT}/vendor/mcp-2026-07-28/ext-tasks-draft.schema.json`, 'utf8')), $id: 'tasks' });
const TASK_TYPES: Record<string, [request: string, result: string]> = { 'tasks/get': ['GetTaskRequest', 'GetTaskResult'], 'tasks/update': ['UpdateTaskRequest', 'UpdateTaskResult'], 'tasks/cancel': ['CancelTaskRequest', 'CancelTaskResult'] };

/** Every task message of the log checked against the extension schema: requests, their results, CreateTaskResults. */
function taskWireProblems(log: WireLog): string[] {
  const problems: string[] = [];
  const check = (type: string, value: unknown) => {
    const validate = tasksAjv.getSchema(`tasks#/$defs/${type}`)!;
    if (!validate(value)) problems.push(`${type}: ${JSON.stringify(value).slice(0, 200)} ${tasksAjv.errorsText(validate.errors)}`);
  };
  const methodOf = new Map<string, string>();
  let checked = 0;
  for (const { direction, message } of log.entries) {
    const id = JSON.stringify(message.id);
    if (direction === 'client→server' && typeof message.method === 'string') {
      methodOf.set(id, message.method);
      const types = TASK_TYPES[message.method];
      if (types) check(types[0], message), checked++;
    } else if (direction === 'server→client' && message.result !== undefined) {
      const method = methodOf.get(id);
      if ((message.result as { resultType?: unknown }).resultType === 'task') check('CreateTaskResult', message.result), checked++;
      else if (method !== undefined && TASK_TYPES[method]) check(TASK_TYPES[method]![1], message.result), checked++;
    }
  }
  if (checked === 0) problems.push('no task message on the wire');
  return problems;
}

async function until(handle: { status(): Promise<TaskState> }, wanted: TaskState['status']): Promise<TaskState> {
  for (let i = 0; i < 400; i++) {
    const state = await handle.status();
    if (state.status === wanted) return state;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task never reached ${wanted}`);
}

describe.each<Transport>(['http', 'stdio'])('tasks over %s', (transport) => {
  it('a task that completes: the call returns its typed result, polled at the server pollIntervalMs, the extension declared', async () => {
    const { client, log } = await connect(transport);
    const started = Date.now();
    const result = await client.render({ frames: 4, frameMs: 30 });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ frames: 4 });
    const [answer] = taskAnswers(log);
    expect(answer).toMatchObject({ status: 'working', pollIntervalMs: 25, ttlMs: 60_000 });
    const polls = sent(log, 'tasks/get');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((p) => p.params.taskId === answer!.taskId)).toBe(true);
    // At most one poll per interval (the render takes ≥ 120 ms at 25 ms per poll).
    expect(polls.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 25) + 1);
    const call = sent(log, 'tools/call')[0]!;
    expect((call.params._meta as Record<string, { extensions?: unknown }>)['io.modelcontextprotocol/clientCapabilities']?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(taskWireProblems(log)).toEqual([]);
  });

  it('concurrent calls each follow their own task', async () => {
    const { client, log } = await connect(transport);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((frames) => client.render({ frames, frameMs: 10 })));
    expect(results.map((r) => r.structuredContent?.frames)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(taskAnswers(log).map((t) => t.taskId)).size).toBe(6);
  });

  it('a task that fails with a JSON-RPC error rejects with that error; one that returns isError completes', async () => {
    const { client } = await connect(transport);
    const failed = await client.importFeed({ url: 'https://feeds.example/x' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProtocolError);
    expect(failed).toMatchObject({ code: -31001, message: expect.stringContaining('Feed unreachable: https://feeds.example/x') });
    const checked = await client.checkFeed({ url: 'https://feeds.example/y' });
    expect(checked.isError).toBe(true);
    expect((checked.content[0] as { text: string }).text).toContain('has no items');
  });

  it('an AbortSignal mid-run sends tasks/cancel and the task ends cancelled', async () => {
    const { client, log } = await connect(transport);
    const stop = new AbortController();
    const call = client.render({ frames: 500, frameMs: 20 }, { signal: stop.signal });
    // Mid-run: once the task exists and is being polled (an abort before the answer cancels only the request).
    await expect.poll(() => sent(log, 'tasks/get').length, { timeout: 10_000 }).toBeGreaterThan(0);
    stop.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
    const [answer] = taskAnswers(log);
    await expect.poll(() => sent(log, 'tasks/cancel').map((c) => c.params.taskId)).toEqual([answer!.taskId]);
    expect(taskWireProblems(log)).toEqual([]);
    // The same through a handle: cancelled for every later reader, result() says so.
    const { task } = await client.startTask('render', { frames: 500, frameMs: 20 });
    await task!.cancel();
    expect((await task!.status()).status).toBe('cancelled');
    // (matched by name: the compiled client loads the runtime's dist, this test its source)
    await expect(task!.result()).rejects.toMatchObject({ name: 'TaskCancelledError', taskId: task!.taskId });
  });

  it('input needed mid-run goes to onElicit and back with tasks/update', async () => {
    const asked: string[] = [];
    const { client, log } = await connect(transport, { onElicit: (r) => (asked.push(r.message), { action: 'accept', content: { confirm: true } }) });
    const result = await client.purge({ dataset: 'logs-2025' });
    expect(result.structuredContent).toMatchObject({ dataset: 'logs-2025', purged: true });
    expect(asked).toEqual(['Purge this dataset? This cannot be undone.']);
    const [update] = sent(log, 'tasks/update');
    expect(update?.params).toMatchObject({ taskId: taskAnswers(log)[0]!.taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(taskWireProblems(log)).toEqual([]);
    const declined = await (await connect(transport, { onElicit: () => ({ action: 'decline' }) })).client.purge({ dataset: 'logs-2026' });
    expect(declined.structuredContent).toMatchObject({ purged: false });
  });

  it('a host drives a task itself: status, respond, result', async () => {
    const { client } = await connect(transport);
    const { task, result } = await client.startTask('purge', { dataset: 'tmp' });
    expect(result).toBeUndefined();
    const waiting = await until(task!, 'input_required');
    expect(Object.keys(waiting.inputRequests ?? {})).toEqual(['confirm']);
    expect(waiting.inputRequests?.confirm).toMatchObject({ method: 'elicitation/create', params: { message: 'Purge this dataset? This cannot be undone.' } });
    await task!.respond({ confirm: { action: 'accept', content: { confirm: true } } });
    expect((await task!.result()).structuredContent).toMatchObject({ dataset: 'tmp', purged: true });
    // Without onElicit, the plain call cannot give the input: it cancels the task and says why.
    await expect(client.purge({ dataset: 'tmp2' })).rejects.toThrow(/cannot give/);
  });

  it('a task that outlives its TTL is gone: the call rejects instead of polling forever', async () => {
    const { client } = await connect(transport);
    expect((await client.snapshot({ ms: 10 })).content[0]).toMatchObject({ text: 'snapshot taken in 10 ms' });
    const gone = await client.snapshot({ ms: 4_000 }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ProtocolError);
    expect((gone as ProtocolError).message).toMatch(/Unknown task/);
  });
});
