// packages/runtime/src/server/tasks/store.ts — the task store contract (io.modelcontextprotocol/tasks, SEP-2663)
// Tasks outlive the request that created them and may be read or cancelled through another instance, so every piece
// of task state lives behind this interface: in memory by default (memory-store.ts), Redis when REDIS_URL is set.
import type { AuthPrincipal } from '../core/principal.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface TaskRecord {
  readonly taskId: string;
  readonly toolName: string;
  /** Who created it (the auth principal's subject) when auth is on; tasks/* from anyone else is "not found". */
  readonly owner?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;      // ISO 8601
  readonly lastUpdatedAt: string;  // ISO 8601
  readonly ttlMs: number;          // the record expires ttlMs after createdAt
  readonly pollIntervalMs?: number;
  /** Once completed: the CallToolResult (isError results are `completed` too). */
  readonly result?: Record<string, unknown>;
  /** Once failed: the JSON-RPC error. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** While input_required: the pending input requests, keyed as in an InputRequiredResult. */
  readonly inputRequests?: Record<string, unknown>;
  /** Runs so far (1 for the first); a task re-run after its worker was lost counts up. */
  readonly attempt?: number;
  /** Only for a tool that may be re-run: what another instance needs to run it again. Never sent to clients. */
  readonly replay?: TaskReplay;
}

export interface TaskReplay {
  readonly arguments: unknown;
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
  readonly clientCapabilities?: Readonly<Record<string, unknown>>;
  /** The authenticated caller who created the task (never the token): the handler sees it again as ctx.auth. */
  readonly principal?: AuthPrincipal;
  readonly max: number;
  readonly backoffMs: number;
}

export type TaskPatch = Partial<Pick<TaskRecord, 'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests' | 'attempt'>>;

export interface TaskUpdateOptions {
  /** No status event: the caller publishes it through confirm() once the write is durable. */
  readonly quiet?: boolean;
}

/** Signals that must reach whichever instance runs the task's handler, and status changes for notifications/tasks. */
export type TaskEvent =
  | { readonly type: 'status'; readonly record: TaskRecord }
  | { readonly type: 'cancel'; readonly taskId: string }
  | { readonly type: 'input'; readonly taskId: string; readonly responses: Record<string, unknown> }
  /** A task was queued for the workers (front/worker split): wakes idle workers at once. */
  | { readonly type: 'queued'; readonly taskId: string };

export interface TaskStore {
  /** Resolves only once the record is durable (every instance can read it). */
  create(record: TaskRecord): Promise<void>;
  /** undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Compare-and-set: applies the patch (and sets lastUpdatedAt) only while the task is not terminal; returns the
   *  record after the patch, or undefined when unknown, expired or already terminal. A status change publishes a
   *  'status' event to every instance's subscribers (this one included). */
  update(taskId: string, patch: TaskPatch, options?: TaskUpdateOptions): Promise<TaskRecord | undefined>;
  /**
   * A terminal record the runner wrote (update with `quiet`): resolves once it is as durable as the store
   * allows — on Sentinel or Cluster, acknowledged by a replica (WAIT), written again when a failover lost it —
   * then publishes its status event; resolves with the record that stands (tasks/redis-confirm.ts).
   */
  confirm?(record: TaskRecord): Promise<TaskRecord>;
  /** Delivers an event to every instance's subscribers (this one included). */
  publish(event: TaskEvent): Promise<void>;
  subscribe(listener: (event: TaskEvent) => void): () => void;
  close(): Promise<void>;
  /**
   * Why a task this store does not have may still have existed (its store lost writes: a Redis failover or
   * restart), said with "unknown task"; undefined when nothing was lost.
   */
  lossNote?(): string | undefined;
  /** Who runs which task, for stores shared by instances (Redis): lets survivors find tasks whose owner died. */
  readonly liveness?: TaskLiveness;
  /** A queue of tasks for worker-only instances (Redis); absent when the store cannot share one. */
  readonly queue?: TaskQueue;
}

/**
 * Front/worker split (docs/tasks.md, Workers): a front instance creates a task queued rather than running it;
 * worker instances take queued tasks and run them. A queued task has no owner lease yet, so it is never judged
 * lost; taking it makes the taker its owner in the same step (a worker that dies after taking it is found by
 * the owner sweep like any other).
 */
export interface TaskQueue {
  /** Writes the record and queues it, as one step (a front that dies in between leaves nothing half done). */
  createQueued(record: TaskRecord): Promise<void>;
  /** Queues a stored task again (a re-run found by a front instance, which runs nothing itself). */
  requeue(taskId: string): Promise<void>;
  /** The next queued task, now owned by this instance; undefined when the queue is empty. */
  take(): Promise<string | undefined>;
}

/**
 * Owner leases (tasks/lease.ts drives them): each instance keeps one lease alive while it runs, and records
 * each task it runs. A task whose owner's lease is gone is claimed by exactly one surviving instance.
 */
export interface TaskLiveness {
  /** Sets or extends this instance's lease to leaseMs from now. */
  renew(leaseMs: number): Promise<void>;
  /** Drops this instance's lease at once (shutdown): its remaining tasks are found on the next sweep. */
  retire(): Promise<void>;
  /** Records that this instance runs the task. */
  own(taskId: string): Promise<void>;
  /** The task is settled (or gone): nobody needs to watch it any more. */
  release(taskId: string): Promise<void>;
  /** Tasks whose owner's lease has expired, each claimed (atomically) for this instance. */
  claimLost(): Promise<string[]>;
}
