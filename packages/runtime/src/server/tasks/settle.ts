// Writing a handler's outcome through store outages (issue 31, "no lost result").
import type { TaskPatch, TaskRecord, TaskStore, TaskUpdateOptions } from './store.js';

/** Longest wait between two attempts at writing a result: a result is written within this of the store coming back. */
const MAX_RETRY_DELAY_MS = 1_000;

/**
 * Writes a handler's outcome, retrying with backoff (100 ms doubling to 1 s) while the store fails, for up
 * to retryMs: a result reached during a Redis outage is written once Redis is back. Only past that
 * bound is it dropped, and then reported through onError — never silently.
 */
export async function settleWithRetry(store: TaskStore, taskId: string, patch: TaskPatch, retryMs: number, onError: (error: unknown, where: string) => void, options?: TaskUpdateOptions): Promise<TaskRecord | undefined> {
  const started = Date.now();
  for (let attempt = 0, delay = 100; ; attempt++, delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS)) {
    try {
      return await store.update(taskId, patch, options);
    } catch (e) {
      if (attempt === 0) onError(e, `task ${taskId}: writing its ${patch.status ?? 'update'} failed, retrying for up to ${retryMs} ms`);
      if (Date.now() - started + delay > retryMs) {
        onError(e, `task ${taskId}: its ${patch.status ?? 'update'} could not be written within ${retryMs} ms and is lost`);
        return undefined;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
