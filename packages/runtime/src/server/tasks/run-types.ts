// What the task runner (runner.ts) runs: a handler as rounds, and how a stored task is rebuilt into a run.
import type { TaskSettings } from '../core/definition.js';
import type { TaskRecord, TaskReplay } from './store.js';

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

export interface TaskRunnerOptions {
  /** Owner lease for stores shared by instances (tasks/lease.ts). Default 15 000 ms. */
  readonly leaseMs?: number;
  /** How long a handler's result or error is retried through store outages before it is dropped. Default 60 000 ms. */
  readonly resultRetryMs?: number;
}

/**
 * What this instance does with tasks (docs/tasks.md, Workers): `all` creates and runs them; `front` creates,
 * reads, answers and cancels them but queues their handlers for the workers; `worker` runs queued ones only.
 */
export type TaskRole = 'all' | 'front' | 'worker';
