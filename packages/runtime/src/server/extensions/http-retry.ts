// When a proxied call is sent again: only idempotent methods (RFC 9110 §9.2.2), only after a 5xx, a 429,
// a timeout or a connection error, a bounded number of times, with exponential backoff or the upstream's
// Retry-After. POST and PATCH are never repeated: the first attempt may have taken effect.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);

export interface RetryPolicy {
  /** Attempts after the first (default 2; 0 turns retries off). */
  readonly retries?: number;
  /** First backoff delay in ms, doubled per attempt, with jitter (default 250). */
  readonly retryDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the tool error carries it to the model (default 10 s). */
  readonly maxRetryDelayMs?: number;
  /** Per attempt, in ms (default 30 s). */
  readonly timeoutMs?: number;
  /**
   * The whole call, retries and their waits included, in ms (default 45 s, or `timeoutMs` when that is
   * longer): below the 60 s tool timeout of generated servers and the official client's 60 s request
   * timeout, so the tool error reaches the client before it gives up.
   */
  readonly budgetMs?: number;
}

/** An attempt is not started with less time than this left in the budget. */
const MIN_ATTEMPT_MS = 1_000;
export const DEFAULT_BUDGET_MS = 45_000;

export function budgetOf(policy: RetryPolicy): number {
  return policy.budgetMs ?? Math.max(DEFAULT_BUDGET_MS, policy.timeoutMs ?? 30_000);
}

/** One attempt's timeout: `timeoutMs`, cut to what is left of the call's budget. */
export function attemptMs(policy: RetryPolicy, deadline: number): number {
  return Math.max(1, Math.min(policy.timeoutMs ?? 30_000, deadline - Date.now()));
}

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/**
 * The delay before attempt `attempt + 1` (0-based count of attempts made so far minus one), or undefined
 * when no retry should happen: out of attempts, or the upstream asks for a longer wait than the bound.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfter: string | null, deadline = Infinity): number | undefined {
  if (attempt >= (policy.retries ?? 2)) return undefined;
  const max = policy.maxRetryDelayMs ?? 10_000;
  const asked = retryAfter === null ? undefined : retryAfterMs(retryAfter);
  const base = (policy.retryDelayMs ?? 250) * 2 ** attempt;
  const wait = asked !== undefined ? (asked <= max ? asked : undefined) : Math.min(max, base / 2 + Math.random() * (base / 2));
  // No attempt that the budget would cut short before it could answer.
  return wait !== undefined && Date.now() + wait + MIN_ATTEMPT_MS <= deadline ? wait : undefined;
}

/** Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Waits, or stops early when the caller cancels. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
