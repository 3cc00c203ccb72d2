// The client half of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a tools/call the server turned
// into a task answers `resultType: "task"` with a taskId; the client then polls tasks/get (at the server's
// pollIntervalMs), answers input requests with tasks/update and cancels with tasks/cancel.
//
// Why a transport tap: the SDK client (2.4.0) knows only `complete` and `input_required` results on 2026-07-28
// and rejects a `task` answer with UnsupportedResultType, dropping the taskId. interceptTaskAnswers turns such an
// answer, as it arrives, into a JSON-RPC error with a private code carrying the task as data, so the pending
// tools/call rejects with a ProtocolError that taskFromError reads back. Nothing of it reaches the wire.
// tasks/get|update|cancel go through the SDK's request(), which sends the envelope and mirrors params.taskId into
// Mcp-Name itself.
import { ProtocolError, type CallToolResult, type Client, type StandardSchemaV1, type Transport } from '@modelcontextprotocol/client';
import { elicitRequestInfo, type ElicitAnswer, type ElicitRequestInfo } from '../core/elicit.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Private: marks a task answer re-shaped by the tap; never sent nor received on the wire. */
const TASK_ANSWER = -32_099;
const DEFAULT_POLL_MS = 1_000;
const MIN_POLL_MS = 10;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as tasks/get returns it: the result, error or pending input requests inlined by status. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** Once `completed` (isError results too). */
  readonly result?: CallToolResult;
  /** Once `failed`: the JSON-RPC error the tool ended with. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** While `input_required`: server-keyed requests (`elicitation/create`, …) to answer with respond(). */
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params?: Record<string, unknown> }>>;
}

/** The task was cancelled (by this client, another one, or the server) before it produced a result. */
export class TaskCancelledError extends Error {
  constructor(readonly taskId: string) {
    super(`task ${taskId} was cancelled`);
    this.name = 'TaskCancelledError';
  }
}

/** A running task, for hosts that drive it themselves. */
export interface TaskHandle<R> {
  readonly taskId: string;
  /** One tasks/get. */
  status(options?: TaskRequestOptions): Promise<TaskState>;
  /** tasks/cancel (cooperative: the task ends `cancelled` unless it finished first). */
  cancel(options?: TaskRequestOptions): Promise<void>;
  /** tasks/update: answers the pending input requests, keyed as in `inputRequests`. */
  respond(inputResponses: Readonly<Record<string, unknown>>, options?: TaskRequestOptions): Promise<void>;
  /**
   * Polls until the task ends: its result once `completed`; throws a ProtocolError once `failed`, a
   * TaskCancelledError once `cancelled`. Input requests go to the client's onElicit; without one, result()
   * keeps polling while the host answers them with respond(). The signal cancels the task (tasks/cancel).
   */
  result(options?: TaskRequestOptions): Promise<R>;
}

export interface TaskRequestOptions {
  readonly signal?: AbortSignal;
  /** Per request (each poll), not for the whole task. */
  readonly timeoutMs?: number;
}

/** What a tools/call started: a task, or the result when the server answered at once. */
export type ToolStart<R> = { readonly task: TaskHandle<R>; readonly result?: never } | { readonly result: R; readonly task?: never };

export type ElicitCallback = (request: ElicitRequestInfo) => ElicitAnswer | Promise<ElicitAnswer>;

/** Re-shapes `resultType: "task"` answers arriving on this (connected) transport; see the header comment. */
export function interceptTaskAnswers(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: unknown; result?: { resultType?: unknown } };
    if (m.id !== undefined && typeof m.result === 'object' && m.result !== null && m.result.resultType === 'task') {
      const reshaped = { jsonrpc: '2.0' as const, id: m.id as string | number, error: { code: TASK_ANSWER, message: 'task', data: m.result } };
      return deliver.call(transport, reshaped as typeof message, extra);
    }
    deliver.call(transport, message, extra);
  };
}

/** The task a tools/call answered with, when this error is the tap's re-shaped task answer. */
export function taskFromError(e: unknown): TaskState | undefined {
  if (!(e instanceof ProtocolError) || e.code !== TASK_ANSWER) return undefined;
  return isTaskState(e.data) ? e.data : undefined;
}

export interface TaskDriverOptions {
  /** Answers elicitation input requests; undefined: the host answers through respond(). */
  readonly onElicit?: ElicitCallback;
  /** Without onElicit, throw (after cancelling) on an input request instead of waiting for respond(). */
  readonly failOnInput?: boolean;
}

export function taskHandle<R>(sdk: Client, first: TaskState, project: (result: CallToolResult) => R, driver: TaskDriverOptions): TaskHandle<R> {
  const taskId = first.taskId;
  const send = <T>(method: string, params: Record<string, unknown>, schema: StandardSchemaV1<unknown, T>, options: TaskRequestOptions = {}) =>
    sdk.request({ method, params: { taskId, ...params } } as never, schema, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    }) as Promise<T>;
  const handle: TaskHandle<R> = {
    taskId,
    status: (options) => send('tasks/get', {}, taskStateSchema, options),
    cancel: async (options) => void (await send('tasks/cancel', {}, anyResult, options)),
    respond: async (inputResponses, options) => void (await send('tasks/update', { inputResponses: { ...inputResponses } }, anyResult, options)),
    async result(options = {}) {
      const { signal } = options;
      const answered = new Set<string>();
      let state = first;
      try {
        for (;;) {
          signal?.throwIfAborted();
          if (state.status === 'completed') return project(state.result ?? { content: [] });
          if (state.status === 'failed') throw new ProtocolError(state.error?.code ?? -32603, state.error?.message ?? 'task failed', state.error?.data);
          if (state.status === 'cancelled') throw new TaskCancelledError(taskId);
          if (state.status === 'input_required') {
            const pending = Object.entries(state.inputRequests ?? {}).filter(([key]) => !answered.has(key));
            if (pending.length > 0 && (driver.onElicit !== undefined || driver.failOnInput)) {
              const responses = await answerInputs(pending, driver.onElicit);
              for (const [key] of pending) answered.add(key);
              await handle.respond(responses, options);
              state = await handle.status(options);
              continue;
            }
          }
          await sleep(Math.max(MIN_POLL_MS, state.pollIntervalMs ?? DEFAULT_POLL_MS), signal);
          state = await handle.status(options);
        }
      } catch (e) {
        // Stopped by the caller (or unable to give the input it asks for): the task should not run on for nobody.
        if (signal?.aborted || e instanceof UnanswerableInput) await handle.cancel({ ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) }).catch(() => {});
        throw e;
      }
    },
  };
  return handle;
}

class UnanswerableInput extends Error {}

async function answerInputs(pending: readonly [string, { readonly method: string; readonly params?: Record<string, unknown> }][], onElicit: ElicitCallback | undefined): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, request] of pending) {
    if (request.method !== 'elicitation/create' || onElicit === undefined) {
      throw new UnanswerableInput(`the task asks for ${request.method} input this client cannot give (no ${onElicit === undefined ? 'onElicit' : `${request.method} support`})`);
    }
    out[key] = await onElicit(elicitRequestInfo(request.params ?? {}));
  }
  return out;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

function isTaskState(v: unknown): v is TaskState {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return typeof t.taskId === 'string' && typeof t.status === 'string' && STATUSES.has(t.status) && (t.pollIntervalMs === undefined || typeof t.pollIntervalMs === 'number');
}

/** Result schemas for sdk.request (Standard Schema, so no validator library is pulled in for two shapes). */
const taskStateSchema: StandardSchemaV1<unknown, TaskState> = {
  '~standard': {
    version: 1,
    vendor: 'mcpgen',
    validate: (value) => (isTaskState(value) ? { value } : { issues: [{ message: 'not a task (taskId, status)' }] }),
  },
};
const anyResult: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcpgen',
    validate: (value) => (typeof value === 'object' && value !== null ? { value: value as Record<string, unknown> } : { issues: [{ message: 'not an object' }] }),
  },
};
