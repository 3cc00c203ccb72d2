// One Redis for every use of an instance (event bus, task store, discovery store, rate limiter): one
// topology-aware client and one subscriber (redis-topology.ts), one health state, one line per state change.
//
// Health is a round trip, not a connection flag: every HEARTBEAT_MS the layer sends PING (to every master of a
// cluster) and waits PING_DEADLINE_MS at most. A Redis that stops answering (SIGSTOP, a stalled host, a
// network partition that leaves the socket open) is "down" at most HEARTBEAT_MS + PING_DEADLINE_MS (2 s) after
// its last answer, as is one that refuses the connection or the password. While down, readiness is 503 and
// every command fails at once with RedisUnavailable naming the reason; a command already sent fails after
// COMMAND_DEADLINE_MS. The first answer after that is "connected" again.
import { logLine } from '../core/log.js';
import { describeRedisError, RedisUnavailable, type RedisConnection, type RedisSubscriber } from './redis-connection.js';
import { describeRedis, type RedisSettings } from './redis-settings.js';
import { loadRedis, makeClients, type TopologyClients } from './redis-topology.js';

export const HEARTBEAT_MS = 1_000;
export const PING_DEADLINE_MS = 1_000;
export const COMMAND_DEADLINE_MS = 2_000;
/** How long the first commands wait for the first connection (Redis down at start must not hang them). */
const FIRST_CONNECT_WAIT_MS = 2_000;

export type RedisState = 'connected' | 'disconnected';

export interface RedisLayerOptions {
  /** Named in the state lines: `redis connected (…)`. Default `redis`. */
  readonly label?: string;
  /** State changes (lost, back) — never one per request. Default: one log line each. */
  readonly onStateChange?: (state: RedisState, detail?: string) => void;
}

export interface RedisLayer {
  /** `standalone redis://host:port`, `sentinel <name> via …`, `cluster via …` (no password). */
  readonly description: string;
  readonly topology: RedisSettings['topology'];
  /** Commands that fail fast (RedisUnavailable) while Redis does not answer. */
  readonly commands: RedisConnection;
  readonly subscriber: RedisSubscriber;
  /** Redis answered the last heartbeat in time. */
  up(): boolean;
  /** Why it is down (undefined while up). */
  reason(): string | undefined;
  /** Resolves once Redis first answered (never rejects; tests and start-up wait on it). */
  readonly connected: Promise<void>;
  /** One command, failing fast while down and after COMMAND_DEADLINE_MS at most. */
  command<T>(run: (c: RedisConnection) => Promise<T>): Promise<T>;
  /** The client rate-limiter-flexible counts with (its isReady follows the health state). */
  limiterClient(): Promise<unknown>;
  /** One more user; the returned function releases it, and the last release closes the connections. */
  retain(): () => Promise<void>;
}

export function openRedis(settings: RedisSettings, options: RedisLayerOptions = {}): RedisLayer {
  const label = options.label ?? 'redis';
  const description = describeRedis(settings);
  const report = options.onStateChange ?? ((state: RedisState, detail?: string) => logLine(state === 'connected' ? 'info' : 'warn', `${label} ${state}${state === 'connected' ? ` (${description})` : detail ? `: ${detail}` : ''}`, { component: label, state, redis: description }));
  const health = healthState(report);
  let current: TopologyClients | undefined;
  let closed = false;
  let refs = 0;
  const clients = connectLoop(settings, label, health, (c) => (current = c), () => closed);
  const beat = heartbeat(() => current, health, () => closed);
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  const firstWait = Promise.race([health.connected, new Promise((r) => setTimeout(r, FIRST_CONNECT_WAIT_MS).unref())]);

  const need = async (): Promise<TopologyClients> => {
    if (!health.up()) await firstWait;
    if (!health.up() || current === undefined) throw new RedisUnavailable(health.reason() ?? 'not connected');
    return current;
  };
  const command = async <T>(run: (c: TopologyClients) => Promise<T>): Promise<T> => withDeadline(run(await need()), COMMAND_DEADLINE_MS);
  const commands: RedisConnection = {
    get: (key) => command((c) => c.client.get(key)),
    set: (key, value, o) => command((c) => c.client.set(key, value, o)),
    eval: (script, o) => command((c) => c.client.eval(script, o)),
    publish: (channel, message) => command((c) => c.publish(channel, message)),
    get isReady() {
      return health.up();
    },
  };
  return {
    description,
    topology: settings.topology,
    commands,
    subscriber: {
      subscribe: async (channel, listener) => void (await command((c) => c.subscribe(channel, listener))),
      unsubscribe: async (channel, listener) => void (await current?.unsubscribe(channel, listener)),
      get isReady() {
        return health.up();
      },
      on: (_event, listener) => health.onUp(listener),
    },
    up: health.up,
    reason: health.reason,
    connected: health.connected,
    command: (run) => command(() => run(commands)),
    limiterClient: async () => {
      await clients;
      return {
        get isReady() {
          return health.up();
        },
        eval: (script: string, o: { keys: string[]; arguments: string[] }) => command((c) => c.client.eval(script, o)),
        multi: () => current!.client.multi(),
      };
    },
    retain() {
      refs++;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        if (--refs > 0) return;
        closed = true;
        clearInterval(timer);
        await clients.catch(() => {});
        await current?.destroy();
      };
    },
  };
}

interface HealthState {
  up(): boolean;
  reason(): string | undefined;
  readonly connected: Promise<void>;
  /** An 'error' event's reason: said at once when the connection is down, kept for the next failed heartbeat. */
  error(detail: string | undefined, down: boolean): void;
  set(up: boolean, detail?: string): void;
  /** A heartbeat failed: down, unless the first connection attempt has had no outcome yet. */
  beatFailed(detail: string | undefined): void;
  /** The clients were made now: the first attempt's grace period starts. */
  attempting(): void;
  onUp(listener: () => void): void;
}

function healthState(report: (state: RedisState, detail?: string) => void): HealthState {
  // undefined until the first outcome: Redis down (or a wrong password) at start is a state too, said once.
  let state: boolean | undefined;
  let lastError: string | undefined;
  // Until the first attempt had an outcome (an error, an answer) or FIRST_CONNECT_WAIT_MS passed, a failed
  // heartbeat is the connection not made yet, not an outage (loading the client alone can take that long).
  let attemptedAt: number | undefined;
  let outcome = false;
  const upListeners: (() => void)[] = [];
  let markConnected!: () => void;
  const connected = new Promise<void>((r) => (markConnected = r));
  const set = (up: boolean, detail?: string) => {
    outcome = true;
    if (up) lastError = undefined;
    else if (detail !== undefined) lastError = detail;
    if (state === up) return;
    state = up;
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
    beatFailed(detail) {
      if (outcome || (attemptedAt !== undefined && Date.now() - attemptedAt >= FIRST_CONNECT_WAIT_MS)) set(false, detail);
    },
    attempting: () => void (attemptedAt ??= Date.now()),
    onUp: (listener) => void upListeners.push(listener),
  };
}

/** Makes the clients and connects them; a topology that found no node at all is made again after a pause. */
async function connectLoop(settings: RedisSettings, label: string, health: HealthState, use: (c: TopologyClients) => void, closed: () => boolean): Promise<void> {
  let lib: Awaited<ReturnType<typeof loadRedis>>;
  try {
    lib = await loadRedis(label);
  } catch (e) {
    health.set(false, e instanceof Error ? e.message : String(e));
    logLine('error', `${label}: ${e instanceof Error ? e.message : String(e)}`, { component: label });
    return;
  }
  for (let attempt = 0; !closed(); attempt++) {
    // node-redis emits 'error' on every failed reconnect: the health state reports transitions only.
    const c = makeClients(lib, settings, (e, down) => health.error(describeRedisError(e), down));
    health.attempting();
    c.client.on('ready', () => void heartbeat(() => c, health, closed)());
    use(c);
    try {
      await c.connect();
      void heartbeat(() => c, health, closed)();
      return;
    } catch (e) {
      health.error(describeRedisError(e), true);
      await c.destroy();
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2_000)));
    }
  }
}

/** One PING round (each master of a cluster), bounded by PING_DEADLINE_MS; never two at once. */
function heartbeat(clients: () => TopologyClients | undefined, health: HealthState, closed: () => boolean): () => Promise<void> {
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
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailable(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  work.catch(() => {}); // a late failure after the deadline is nobody's
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** What a use is given: the instance's shared layer, or (a use made on its own, as in tests) a URL to open one for it. */
export interface RedisUseOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS: a standalone Redis of this use's own. */
  readonly url?: string;
  /** The instance's Redis (openRedis): shared with its other uses. Wins over `url`. */
  readonly redis?: RedisLayer;
  /** With `url`: connection state changes. Default: one log line each. */
  readonly onStateChange?: (state: RedisState, detail?: string) => void;
}

/** The layer a use runs on, retained (release it on close). */
export function useRedis(options: RedisUseOptions, label: string): { layer: RedisLayer; release: () => Promise<void> } {
  if (options.redis !== undefined) return { layer: options.redis, release: options.redis.retain() };
  if (options.url === undefined) throw new Error(`the ${label} needs a Redis: url or redis`);
  const layer = openRedis({ topology: 'standalone', url: options.url }, { label, ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}) });
  return { layer, release: layer.retain() };
}
