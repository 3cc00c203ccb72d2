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
import { FIRST_CONNECT_WAIT_MS, healthState, heartbeat, withDeadline, type HealthState, type RedisState } from './redis-health.js';
import { describeRedis, type RedisSettings } from './redis-settings.js';
import { loadRedis, makeClients, type TopologyClients } from './redis-topology.js';

export const HEARTBEAT_MS = 1_000;
export const COMMAND_DEADLINE_MS = 2_000;
/** A cluster that has not answered for this long is discovered again from its seeds (a promoted replica). */
const CLUSTER_REBUILD_AFTER_MS = 3_000;
/** The longest a (re)connection may take before it is given up and made again. */
const CONNECT_DEADLINE_MS = 5_000;

export type { RedisState };

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
  /**
   * Sentinel or Cluster: a master may be replaced by a replica, losing the writes it had not replicated
   * (asynchronous replication). Writes that must survive that are confirmed with `commands.wait`.
   */
  readonly failover: boolean;
  /** Commands that fail fast (RedisUnavailable) while Redis does not answer. */
  readonly commands: RedisConnection;
  readonly subscriber: RedisSubscriber;
  /** Redis answered the last heartbeat in time. */
  up(): boolean;
  /** Why it is down (undefined while up). */
  reason(): string | undefined;
  /**
   * When Redis last answered again after an outage (a failover, a restart): what was written just before may
   * be gone (asynchronous replication, no persistence). Undefined when it never went away once up.
   */
  recoveredAt(): number | undefined;
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
  const subs = trackedSubscriptions(() => current);
  const connect = () => connectLoop(settings, label, health, (c) => (current = c), () => closed).then(subs.resubscribe);
  let clients = connect();
  let rebuilding = false;
  let rebuiltAt = 0;
  const beat = heartbeat(() => current, health, () => closed);
  const timer = setInterval(() => {
    void beat();
    // node-redis finds a cluster's promoted replica only on MOVED, which a dead master never answers: after a
    // while without an answer, the client is made again from the seeds, which know the new master.
    if (settings.topology !== 'cluster' || rebuilding || closed || health.downFor() < CLUSTER_REBUILD_AFTER_MS || Date.now() - rebuiltAt < CLUSTER_REBUILD_AFTER_MS) return;
    rebuilding = true;
    rebuiltAt = Date.now();
    const old = current;
    current = undefined;
    clients = (async () => {
      await old?.destroy();
      await connect();
    })().finally(() => void (rebuilding = false));
  }, HEARTBEAT_MS);
  timer.unref();
  const firstWait = Promise.race([health.connected, new Promise((r) => setTimeout(r, FIRST_CONNECT_WAIT_MS).unref())]);

  const need = async (): Promise<TopologyClients> => {
    if (!health.up()) await firstWait;
    if (!health.up() || current === undefined) throw new RedisUnavailable(health.reason() ?? 'not connected');
    return current;
  };
  const command = async <T>(run: (c: TopologyClients) => Promise<T>): Promise<T> => withDeadline(run(await need()), COMMAND_DEADLINE_MS);
  const commands = commandsOf(command, health);

  return {
    description,
    topology: settings.topology,
    failover: settings.topology !== 'standalone',
    commands,
    subscriber: {
      subscribe: async (channel, listener) => {
        await command((c) => c.subscribe(channel, listener));
        subs.add(channel, listener);
      },
      unsubscribe: subs.remove,
      get isReady() {
        return health.up();
      },
      on: (_event, listener) => health.onUp(listener),
    },
    up: health.up,
    reason: health.reason,
    recoveredAt: health.recoveredAt,
    connected: health.connected,
    command: (run) => command(() => run(commands)),
    limiterClient: async () => {
      await clients;
      return limiterClientOf(command, () => current, health);
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

type Command = <T>(run: (c: TopologyClients) => Promise<T>) => Promise<T>;

function commandsOf(command: Command, health: HealthState): RedisConnection {
  return {
    get: (key) => command((c) => c.client.get(key)),
    set: (key, value, o) => command((c) => c.client.set(key, value, o)),
    eval: (script, o) => command((c) => c.client.eval(script, o)),
    publish: (channel, message) => command((c) => c.publish(channel, message)),
    wait: (key, replicas, ms) => command((c) => c.wait(key, replicas, ms)),
    get isReady() {
      return health.up();
    },
  };
}

/** What rate-limiter-flexible calls (EVAL, MULTI), with the health state as its isReady: down, it counts in memory at once. */
function limiterClientOf(command: Command, current: () => TopologyClients | undefined, health: HealthState): unknown {
  return {
    get isReady() {
      return health.up();
    },
    eval: (script: string, o: { keys: string[]; arguments: string[] }) => command((c) => c.client.eval(script, o)),
    multi: () => current()!.client.multi(),
  };
}

/** What the uses subscribed, made again on a rebuilt cluster client (node-redis resubscribes only its own). */
function trackedSubscriptions(current: () => TopologyClients | undefined) {
  const subscriptions = new Map<string, Set<(message: string) => void>>();
  return {
    add: (channel: string, listener: (message: string) => void) => void subscriptions.set(channel, (subscriptions.get(channel) ?? new Set()).add(listener)),
    async remove(channel: string, listener: (message: string) => void): Promise<void> {
      subscriptions.get(channel)?.delete(listener);
      if (subscriptions.get(channel)?.size === 0) subscriptions.delete(channel);
      await current()?.unsubscribe(channel, listener);
    },
    async resubscribe(): Promise<void> {
      for (const [channel, listeners] of subscriptions) for (const l of listeners) await current()?.subscribe(channel, l).catch(() => {});
    },
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
    const beat = heartbeat(() => c, health, closed);
    const c: TopologyClients = makeClients(lib, settings, (e, down) => health.error(describeRedisError(e), down), () => void beat());
    health.attempting();
    use(c);
    try {
      // A cluster client connects to every master: one that died would hold it forever.
      await withDeadline(c.connect(), CONNECT_DEADLINE_MS);
      void beat();
      return;
    } catch (e) {
      health.error(describeRedisError(e), true);
      await c.destroy();
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2_000)));
    }
  }
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
