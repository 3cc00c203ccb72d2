/** Task defaults (`task:` on a tool): a record kept one hour after creation, polled every second. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
