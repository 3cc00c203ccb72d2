// Runs tool handlers as tasks. The handler is the same typed function as for a synchronous call; it runs
// in rounds: a round that returns input requests parks the task in `input_required` until every key is
// answered through tasks/update (from any instance: the answers arrive as store events), then the
// handler runs again with all answers so far — the MRTR retry, moved behind the task.
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { TaskSettings } from '../core/definition.js';
import type { TaskEvent, TaskRecord, TaskStore } from './store.js';

export type { TaskSettings };


/** One run of the handler: the final CallToolResult, or the input it asks for. ProtocolErrors propagate (→ failed). */
export type TaskStep = (round: TaskRound) => Promise<TaskStepOutcome>;

export interface TaskRound {
  readonly signal: AbortSignal;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  /** ctx.progress inside a task: becomes the task's statusMessage (no progress notifications on tasks). */
  statusMessage(message: string): Promise<void>;
}

export type TaskStepOutcome =
  | { readonly kind: 'input'; readonly inputRequests: Readonly<Record<string, unknown>>; readonly requestState?: string }
  | { readonly kind: 'result'; readonly result: Record<string, unknown> };

export interface StartTask {
  readonly toolName: string;
  readonly owner?: string;
  readonly settings: TaskSettings;
  /** Answers gathered before the task existed (MRTR rounds on tools/call). */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  readonly step: TaskStep;
}

/** Why a task's handler signal aborted: cancelled, expired or the server closing (not a handler failure). */
export class TaskStopped extends Error {}

interface Running {
  readonly abort: AbortController;
  /** Wire keys of the current round's input requests not answered yet → the handler's own key. */
  pending: Map<string, string>;
  /** Every wire key issued so far: a key is never reused over the task's lifetime (SEP-2663). */
  readonly issued: Set<string>;
  received: Record<string, unknown>;
  wake: (() => void) | undefined;
}

export class TaskRunner {
  readonly #running = new Map<string, Running>();
  readonly #unsubscribe: () => void;

  constructor(
    readonly store: TaskStore,
    private readonly onError: (error: unknown, where: string) => void,
  ) {
    this.#unsubscribe = store.subscribe((event) => this.#onEvent(event));
  }

  /** Creates the record (durably: the store resolves once every instance can read it), then runs the handler. */
  async start(request: StartTask): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: randomUUID(),
      toolName: request.toolName,
      ...(request.owner !== undefined ? { owner: request.owner } : {}),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: request.settings.ttlMs,
      ...(request.settings.pollIntervalMs !== undefined ? { pollIntervalMs: request.settings.pollIntervalMs } : {}),
    };
    await this.store.create(record);
    const running: Running = { abort: new AbortController(), pending: new Map(), issued: new Set(), received: {}, wake: undefined };
    this.#running.set(record.taskId, running);
    running.abort.signal.addEventListener('abort', () => running.wake?.(), { once: true });
    // Past its TTL the record is gone: stop the handler and forget the task.
    const expiry = setTimeout(() => running.abort.abort(new TaskStopped('task expired')), request.settings.ttlMs);
    expiry.unref();
    void this.#run(record.taskId, request, running).finally(() => {
      clearTimeout(expiry);
      running.wake?.();
      this.#running.delete(record.taskId);
    });
    return record;
  }

  /** Tasks whose handler runs in this process (tests, shutdown). */
  get runningCount(): number {
    return this.#running.size;
  }

  close(): void {
    this.#unsubscribe();
    for (const r of this.#running.values()) r.abort.abort(new TaskStopped('server closing'));
  }

  async #run(taskId: string, request: StartTask, running: Running): Promise<void> {
    const { signal } = running.abort;
    let responses = request.inputResponses;
    let requestState = request.requestState;
    const statusMessage = async (message: string) => {
      if (signal.aborted) return;
      const updated = await this.store.update(taskId, { statusMessage: message });
      if (updated === undefined) running.abort.abort(new TaskStopped('task ended'));
    };
    try {
      for (;;) {
        const outcome = await request.step({ signal, inputResponses: responses, requestState, statusMessage });
        if (signal.aborted) return; // cancelled or expired: the canceller already wrote the status
        if (outcome.kind === 'result') {
          await this.store.update(taskId, { status: 'completed', result: outcome.result, inputRequests: {} });
          return;
        }
        const inputRequests: Record<string, unknown> = {};
        running.pending = new Map();
        for (const [key, value] of Object.entries(outcome.inputRequests)) {
          const wire = freshKey(key, running.issued);
          running.issued.add(wire);
          running.pending.set(wire, key);
          inputRequests[wire] = value;
        }
        running.received = {};
        const answered = new Promise<void>((resolve) => (running.wake = resolve));
        const parked = await this.store.update(taskId, { status: 'input_required', inputRequests });
        if (parked === undefined) return;
        await answered;
        running.wake = undefined;
        if (signal.aborted) return;
        responses = { ...(responses ?? {}), ...running.received };
        requestState = outcome.requestState;
      }
    } catch (e) {
      if (signal.aborted) return;
      const error = e instanceof ProtocolError ? { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } : { code: -32603, message: `Tool ${request.toolName} failed` };
      if (!(e instanceof ProtocolError)) this.onError(e, `task ${taskId} (tool ${request.toolName})`);
      await this.store.update(taskId, { status: 'failed', error, inputRequests: {} }).catch((failure: unknown) => this.onError(failure, `task ${taskId}`));
    }
  }

  #onEvent(event: TaskEvent): void {
    if (event.type === 'status') {
      // Any instance may end the task (tasks/cancel): stop our handler when it is no longer live.
      const running = this.#running.get(event.record.taskId);
      if (running !== undefined && event.record.status === 'cancelled') running.abort.abort(new TaskStopped('task cancelled'));
      return;
    }
    const running = this.#running.get(event.taskId);
    if (running === undefined) return;
    if (event.type === 'cancel') {
      running.abort.abort(new TaskStopped('task cancelled'));
      return;
    }
    for (const [wire, value] of Object.entries(event.responses)) {
      const key = running.pending.get(wire);
      if (key === undefined) continue;
      running.pending.delete(wire);
      running.received[key] = value;
    }
    if (running.pending.size === 0) running.wake?.();
  }
}

/**
 * The handler's key, or `key~2`, `key~3`… when it was issued before (a handler that asks again after a
 * decline): answers map back to the handler's own key. Spec elicit keys never contain `~`.
 */
export function freshKey(key: string, issued: ReadonlySet<string>): string {
  if (!issued.has(key)) return key;
  let n = 2;
  while (issued.has(`${key}~${n}`)) n++;
  return `${key}~${n}`;
}

/** The handler's key behind a wire key (for checking an answer against the tool's elicit schema). */
export function handlerKey(wire: string): string {
  return wire.replace(/~\d+$/, '');
}
