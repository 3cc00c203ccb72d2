// Runs tool handlers as tasks. The handler is the same typed function as for a synchronous call; it runs
// in rounds: a round that returns input requests parks the task in `input_required` until every key is
// answered through tasks/update (from any instance: the answers arrive as store events), then the
// handler runs again with all answers so far — the MRTR retry, moved behind the task.
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { DEFAULT_TASK_LEASE_MS, TaskLeases } from './lease.js';
import { freshKey } from './input-keys.js';
import type { StartTask, TaskResume, TaskRole, TaskRunnerOptions } from './run-types.js';
import { settleWithRetry } from './settle.js';
import { DEFAULT_WORKER_CONCURRENCY, TaskWorkerPump } from './worker-pump.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskPatch, type TaskRecord, type TaskStore } from './store.js';

export type { StartTask, TaskResume, TaskRole, TaskRound, TaskRunnerOptions, TaskStep, TaskStepOutcome } from './run-types.js';

/** Why a task's handler signal aborted: cancelled, expired or the server closing (not a handler failure). */
export class TaskStopped extends Error {}
export { freshKey, handlerKey } from './input-keys.js';
/** The server is closing: the task is left to the other instances (its owner entry stays). */
class ServerClosing extends TaskStopped {}

export const DEFAULT_RESULT_RETRY_MS = 60_000;
/** How long close() waits for outcomes already being written. */
const CLOSE_SETTLE_MS = 2_000;

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
  /** A lost task claimed as draining began: close() drops the lease so a survivor claims it again. */
  #claimedWhileDraining = false;
  #resume: TaskResume | undefined;
  #role: TaskRole = 'all';
  #pump: TaskWorkerPump | undefined;
  /** Each handler's run, settled once its outcome is written (or dropped). */
  readonly #runs = new Set<Promise<void>>();

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
      // A front stores every task's arguments (a worker runs it); others only those of tools that may run again.
      ...(request.replay !== undefined && this.#leases !== undefined && (this.#role === 'front' || request.replay.max > 0) ? { attempt: 1, replay: request.replay } : {}),
    };
    if (this.#role === 'front') {
      if (record.replay === undefined) throw new ProtocolError(-32603, `Tool ${request.toolName} cannot run on a worker`);
      await this.store.queue!.createQueued(record);
      return record;
    }
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

  /**
   * Switches this instance to a front or a worker (before it serves anything). Both need a store with a
   * queue and owner leases (Redis); a worker starts taking queued tasks once its lease exists.
   */
  setRole(role: TaskRole, concurrency = DEFAULT_WORKER_CONCURRENCY): void {
    const queue = this.store.queue;
    if (role !== 'all' && (queue === undefined || this.#leases === undefined)) throw new Error(`a ${role} instance needs a shared task store with a queue (REDIS_URL)`);
    this.#role = role;
    if (role !== 'worker' || queue === undefined || this.#leases === undefined) return;
    const pump = new TaskWorkerPump(queue, Math.max(1, concurrency), () => this.#running.size, (taskId) => this.#runQueued(taskId), this.onError);
    this.#pump = pump;
    void this.#leases.ready().then(() => pump.wake());
  }

  /** A task taken from the queue (this instance owns it now): its handler starts here, from the stored arguments. */
  async #runQueued(taskId: string): Promise<void> {
    const record = await this.store.get(taskId);
    const request = record === undefined || TERMINAL_STATUSES.has(record.status) ? undefined : this.#resume?.(record);
    if (record !== undefined && request !== undefined) return this.#launch(record, request);
    if (record !== undefined && !TERMINAL_STATUSES.has(record.status)) {
      await this.#settle(taskId, { status: 'failed', error: { code: -32603, message: `Tool ${record.toolName} cannot run on this worker` }, inputRequests: {} });
    }
    this.#leases?.release(taskId);
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
    const run = this.#run(record.taskId, request, running).finally(() => {
      clearTimeout(expiry);
      running.wake?.();
      this.#running.delete(record.taskId);
      // A handler stopped by close() leaves its owner entry: the next owner-sweep of a survivor ends the task.
      if (!(running.abort.signal.reason instanceof ServerClosing)) this.#leases?.release(record.taskId);
      this.#pump?.wake(); // a slot is free
      this.#runs.delete(run);
    });
    this.#runs.add(run);
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
    this.#leases?.stopClaiming();
    this.#pump?.stop();
    const until = Date.now() + graceMs;
    while (this.#running.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, until - Date.now()))));
    await this.close();
  }

  /**
   * Stops every handler running here; resolves once the lease is dropped (before the process may exit). An
   * outcome being written when close() came is let through first (up to CLOSE_SETTLE_MS): dropping the lease
   * before it lands would let a survivor run a finished task again.
   */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#pump?.stop();
    const handOver = this.#running.size > 0 || this.#claimedWhileDraining;
    for (const r of this.#running.values()) r.abort.abort(new ServerClosing('server closing'));
    await Promise.race([Promise.allSettled([...this.#runs]), new Promise((r) => setTimeout(r, CLOSE_SETTLE_MS).unref())]);
    // Dropping the lease hands the tasks still running here to the survivors' next sweep.
    await (this.#leases?.stop(handOver) ?? Promise.resolve());
  }

  /** An outcome, written through store outages (settle.ts); a terminal one confirmed (store.confirm) while we still own the task. */
  async #settle(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const terminal = patch.status !== undefined && TERMINAL_STATUSES.has(patch.status) && this.store.confirm !== undefined;
    const written = await settleWithRetry(this.store, taskId, patch, this.#resultRetryMs, this.onError, terminal ? { quiet: true } : undefined);
    return terminal && written !== undefined ? this.store.confirm!(written) : written;
  }

  /**
   * A task claimed from an instance that is gone: run again here when its tool allows another run (the
   * claim made this instance its owner), else ended failed with the lost-worker error and released.
   */
  async #lost(taskId: string): Promise<void> {
    const record = await this.store.get(taskId);
    if (record !== undefined && !TERMINAL_STATUSES.has(record.status)) {
      if (await this.#rerun(record)) return;
      // Claimed by a sweep under way when draining began: kept, and handed on with the lease close() drops.
      if (this.#draining) {
        this.#claimedWhileDraining = true;
        return;
      }
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
    // A front runs nothing: the task goes back to the queue for a worker.
    if (this.#role === 'front') await this.store.queue!.requeue(record.taskId);
    else this.#launch(next, request);
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
        // Cancelled, expired or closing: the canceller wrote the status, or a survivor takes the task over. (A
        // result here may be the isError an aborted handler's call is turned into: never written as the outcome.)
        if (signal.aborted) return;
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
    if (event.type === 'queued') {
      this.#pump?.wake();
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
