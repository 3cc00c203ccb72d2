// The health state of an instance's Redis (redis-layer.ts): up only while a round trip answers in time — a
// PING every HEARTBEAT_MS, PING_DEADLINE_MS at most — and one report per change, never one per attempt.
import { describeRedisError, RedisUnavailable } from './redis-connection.js';
import type { TopologyClients } from './redis-topology.js';

export type RedisState = 'connected' | 'disconnected';

/** How long the first commands wait for the first connection (Redis down at start must not hang them). */
export const FIRST_CONNECT_WAIT_MS = 2_000;
export const PING_DEADLINE_MS = 1_000;

export interface HealthState {
  up(): boolean;
  reason(): string | undefined;
  readonly connected: Promise<void>;
  /** An 'error' event's reason: said at once when the connection is down, kept for the next failed heartbeat. */
  error(detail: string | undefined, down: boolean): void;
  set(up: boolean, detail?: string): void;
  /** When it last came back after having been up before (writes just before the outage may be gone), else undefined. */
  recoveredAt(): number | undefined;
  /** How long it has been down (0 while up or before the first outcome). */
  downFor(): number;
  /** A heartbeat failed: down, unless the first connection attempt has had no outcome yet. */
  beatFailed(detail: string | undefined): void;
  /** The clients were made now: the first attempt's grace period starts. */
  attempting(): void;
  onUp(listener: () => void): void;
}

export function healthState(report: (state: RedisState, detail?: string) => void): HealthState {
  // undefined until the first outcome: Redis down (or a wrong password) at start is a state too, said once.
  let state: boolean | undefined;
  let lastError: string | undefined;
  // Until the first attempt had an outcome (an error, an answer) or FIRST_CONNECT_WAIT_MS passed, a failed
  // heartbeat is the connection not made yet, not an outage (loading the client alone can take that long).
  let attemptedAt: number | undefined;
  let outcome = false;
  let downSince: number | undefined;
  let everUp = false;
  let recoveredAt: number | undefined;
  const upListeners: (() => void)[] = [];
  let markConnected!: () => void;
  const connected = new Promise<void>((r) => (markConnected = r));
  const set = (up: boolean, detail?: string) => {
    outcome = true;
    if (up) lastError = undefined;
    else if (detail !== undefined) lastError = detail;
    if (state === up) return;
    state = up;
    downSince = up ? undefined : Date.now();
    if (up && everUp) recoveredAt = Date.now();
    if (up) everUp = true;
    report(up ? 'connected' : 'disconnected', up ? undefined : lastError);
    if (!up) return;
    markConnected();
    for (const listener of upListeners) listener();
  };
  return {
    up: () => state === true,
    reason: () => (state === true ? undefined : lastError),
    connected,
    error(detail, down) {
      if (detail !== undefined) lastError = detail;
      if (down) set(false, detail);
    },
    set,
    recoveredAt: () => recoveredAt,
    downFor: () => (downSince === undefined ? 0 : Date.now() - downSince),
    beatFailed(detail) {
      if (outcome || (attemptedAt !== undefined && Date.now() - attemptedAt >= FIRST_CONNECT_WAIT_MS)) set(false, detail);
    },
    attempting: () => void (attemptedAt ??= Date.now()),
    onUp: (listener) => void upListeners.push(listener),
  };
}

/** One PING round (each master of a cluster), bounded by PING_DEADLINE_MS; never two at once. */
export function heartbeat(clients: () => TopologyClients | undefined, health: HealthState, closed: () => boolean): () => Promise<void> {
  let beating = false;
  return async () => {
    const c = clients();
    if (beating || closed() || c === undefined) return;
    beating = true;
    try {
      await withDeadline(c.ping(), PING_DEADLINE_MS);
      health.set(true);
    } catch (e) {
      // "The client is offline" says less than the connection's own error (ECONNREFUSED, WRONGPASS…).
      health.beatFailed(e instanceof RedisUnavailable ? e.detail : health.reason() ?? describeRedisError(e));
    } finally {
      beating = false;
    }
  };
}

/** `work`, or RedisUnavailable when it has not settled after `ms` (a frozen Redis never answers). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailable(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  work.catch(() => {}); // a late failure after the deadline is nobody's
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
