// Runs tool handlers as tasks. The handler is the same typed function as for a synchronous call; it runs
// in rounds: a round that returns input requests parks the task in `input_required` until every key is
// answered through tasks/update (from any instance: the answers arrive as store events), then the
// handler runs again with all answers so far — the MRTR retry, moved behind the task.
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { TaskSettings } from '../core/definition.js';
import { DEFAULT_TASK_LEASE_MS, TaskLeases } from './lease.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskPatch, type TaskRecord, type TaskReplay, type TaskStore } from './store.js';

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
  /** Set when another instance may run the task again if this one is lost. */
  readonly replay?: TaskReplay;
}

/** Rebuilds a lost task's run from its record (the dispatcher knows the tool); undefined when it cannot. */
export type TaskResume = (record: TaskRecord) => StartTask | undefined;

/** Why a task's handler signal aborted: cancelled, expired or the server closing (not a handler failure). */
export class TaskStopped extends Error {}
/** The server is closing: the task is left to the other instances (its owner entry stays). */
class ServerClosing extends TaskStopped {}

export interface TaskRunnerOptions {
  /** Owner lease for stores shared by instances (tasks/lease.ts). Default 15 000 ms. */
  readonly leaseMs?: number;
  /** How long a handler's result or error is retried through store outages before it is dropped. Default 60 000 ms. */
  readonly resultRetryMs?: number;
}

export const DEFAULT_RESULT_RETRY_MS = 60_000;
/** Longest wait between two attempts at writing a result: a result is written within this of the store coming back. */
const MAX_RETRY_DELAY_MS = 1_000;

/** The error a task ends with when the instance running it is gone. */
export const LOST_WORKER_MESSAGE = 'The worker running this task was lost (the instance stopped or crashed) before it finished';

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
  readonly #leases: TaskLeases | undefined;
  readonly #resultRetryMs: number;
  #draining = false;
  #resume: TaskResume | undefined;

  constructor(
    readonly store: TaskStore,
    private readonly onError: (error: unknown, where: string) => void,
    options: TaskRunnerOptions = {},
  ) {
    this.#unsubscribe = store.subscribe((event) => this.#onEvent(event));
    this.#resultRetryMs = options.resultRetryMs ?? DEFAULT_RESULT_RETRY_MS;
    const liveness = store.liveness;
    this.#leases = liveness === undefined ? undefined : new TaskLeases(liveness, options.leaseMs ?? DEFAULT_TASK_LEASE_MS, (taskId) => this.#lost(taskId), onError);
  }

  /** Creates the record (durably: the store resolves once every instance can read it), then runs the handler. */
  async start(request: StartTask): Promise<TaskRecord> {
    if (this.#draining) throw new ProtocolError(-32603, 'This server instance is shutting down: try again (another instance will take the task)');
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
      ...(request.replay !== undefined && this.#leases !== undefined ? { attempt: 1, replay: request.replay } : {}),
    };
    // Owner first: a record without one could never be found if this instance died.
    await this.#leases?.own(record.taskId);
    await this.store.create(record);
    this.#launch(record, request);
    return record;
  }

  /** Hooks up re-running lost tasks (the dispatcher builds their steps from the stored arguments). */
  setResume(resume: TaskResume): void {
    this.#resume = resume;
  }

  /** Runs the handler of a stored task in this process until it ends, expires or the server closes. */
  #launch(record: TaskRecord, request: StartTask): void {
    const remainingMs = Date.parse(record.createdAt) + record.ttlMs - Date.now();
    const running: Running = { abort: new AbortController(), pending: new Map(), issued: new Set(), received: {}, wake: undefined };
    this.#running.set(record.taskId, running);
    running.abort.signal.addEventListener('abort', () => running.wake?.(), { once: true });
    // Past its TTL the record is gone: stop the handler and forget the task.
    const expiry = setTimeout(() => running.abort.abort(new TaskStopped('task expired')), Math.max(0, remainingMs));
    expiry.unref();
    void this.#run(record.taskId, request, running).finally(() => {
      clearTimeout(expiry);
      running.wake?.();
      this.#running.delete(record.taskId);
      // A handler stopped by close() leaves its owner entry: the next owner-sweep of a survivor ends the task.
      if (!(running.abort.signal.reason instanceof ServerClosing)) this.#leases?.release(record.taskId);
    });
  }

  /** Tasks whose handler runs in this process (tests, shutdown). */
  get runningCount(): number {
    return this.#running.size;
  }

  /**
   * Shutdown: refuses new tasks, lets running handlers finish for up to graceMs, then closes (the tasks
   * still running are handed to the survivors through the dropped lease).
   */
  async drain(graceMs: number): Promise<void> {
    this.#draining = true;
    const until = Date.now() + graceMs;
    while (this.#running.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, until - Date.now()))));
    await this.close();
  }

  /** Stops every handler running here; resolves once the lease is dropped (before the process may exit). */
  close(): Promise<void> {
    this.#unsubscribe();
    // Dropping the lease hands the tasks still running here to the survivors' next sweep.
    const stopped = this.#leases?.stop(this.#running.size > 0) ?? Promise.resolve();
    for (const r of this.#running.values()) r.abort.abort(new ServerClosing('server closing'));
    return stopped;
  }

  /**
   * Writes a handler's outcome, retrying with backoff (100 ms doubling to 1 s) while the store fails, for up
   * to resultRetryMs: a result reached during a Redis outage is written once Redis is back. Only past that
   * bound is it dropped, and then reported through onError — never silently.
   */
  async #settle(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const started = Date.now();
    for (let attempt = 0, delay = 100; ; attempt++, delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS)) {
      try {
        return await this.store.update(taskId, patch);
      } catch (e) {
        if (attempt === 0) this.onError(e, `task ${taskId}: writing its ${patch.status ?? 'update'} failed, retrying for up to ${this.#resultRetryMs} ms`);
        if (Date.now() - started + delay > this.#resultRetryMs) {
          this.onError(e, `task ${taskId}: its ${patch.status ?? 'update'} could not be written within ${this.#resultRetryMs} ms and is lost`);
          return undefined;
        }
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /**
   * A task claimed from an instance that is gone: run again here when its tool allows another run (the
   * claim made this instance its owner), else ended failed with the lost-worker error and released.
   */
  async #lost(taskId: string): Promise<void> {
    const record = await this.store.get(taskId);
    if (record !== undefined && !TERMINAL_STATUSES.has(record.status)) {
      if (await this.#rerun(record)) return;
      await this.#settle(taskId, { status: 'failed', error: { code: -32603, message: LOST_WORKER_MESSAGE }, inputRequests: {} });
    }
    this.#leases?.release(taskId);
  }

  async #rerun(record: TaskRecord): Promise<boolean> {
    const attempt = record.attempt ?? 1;
    if (this.#draining || record.replay === undefined || attempt > record.replay.max) return false;
    const request = this.#resume?.(record);
    if (request === undefined) return false;
    if (record.replay.backoffMs > 0) await new Promise((r) => setTimeout(r, record.replay!.backoffMs));
    const next = await this.#settle(record.taskId, {
      status: 'working',
      attempt: attempt + 1,
      statusMessage: `Running again after the worker was lost (run ${attempt + 1} of ${record.replay.max + 1})`,
      inputRequests: {},
    });
    if (next === undefined) return false;
    this.#launch(next, request);
    return true;
  }

  async #run(taskId: string, request: StartTask, running: Running): Promise<void> {
    const { signal } = running.abort;
    let responses = request.inputResponses;
    let requestState = request.requestState;
    // Advisory: a status message the store cannot take (Redis down) is dropped and logged once per task, never
    // thrown into the handler — losing a progress line must not kill the work it reports on.
    let dropped = false;
    const statusMessage = async (message: string) => {
      if (signal.aborted) return;
      try {
        const updated = await this.store.update(taskId, { statusMessage: message });
        if (updated === undefined) running.abort.abort(new TaskStopped('task ended'));
      } catch (e) {
        if (!dropped) this.onError(e, `task ${taskId}: status message dropped (later ones too, silently)`);
        dropped = true;
      }
    };
    try {
      for (;;) {
        const outcome = await request.step({ signal, inputResponses: responses, requestState, statusMessage });
        if (signal.aborted) return; // cancelled or expired: the canceller already wrote the status
        if (outcome.kind === 'result') {
          await this.#settle(taskId, { status: 'completed', result: outcome.result, inputRequests: {} });
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
        const parked = await this.#settle(taskId, { status: 'input_required', inputRequests });
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
      await this.#settle(taskId, { status: 'failed', error, inputRequests: {} });
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
