// The Redis connections of a server instance (the event bus and the task store each open one pair): a command
// connection and a subscriber (node-redis needs a dedicated connection for SUBSCRIBE), one reconnect policy, one
// way of reporting the connection state.
//
// `@redis/client` (node-redis, Redis Inc.'s official client) is loaded only when a pair is opened, so servers
// that run one instance need not install it.
import { logLine } from '../core/log.js';

/** The few node-redis client members used here (the package is an optional peer, loaded on demand). */
export interface RedisConnection {
  connect(): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: Record<string, unknown>): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  duplicate(): RedisConnection;
  on(event: 'error' | 'ready' | 'end', listener: (arg?: unknown) => void): unknown;
  close(): Promise<void>;
  readonly isReady: boolean;
}

export interface RedisPair {
  /** Commands and PUBLISH. Fails fast while disconnected (no offline queue). */
  readonly client: RedisConnection;
  readonly subscriber: RedisConnection;
  /** Resolves once both are connected (connect keeps retrying while Redis is down). */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

export interface RedisPairOptions {
  readonly url: string;
  /** Names the user in messages: "redis event bus", "redis task store". */
  readonly label: string;
  /** Connection state changes (lost, back) — never one line per request. Default: one stderr line each. */
  readonly onStateChange?: (state: 'connected' | 'disconnected', detail?: string) => void;
}

/** A node-redis error as one line: the reason (refused, WRONGPASS, NOAUTH…), never the URL with its password. */
export function describeRedisError(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const causes = error instanceof AggregateError ? error.errors.filter((e): e is Error => e instanceof Error).map((e) => e.message) : [];
  return (error.message || causes.join('; ') || error.name).replace(/redis(s?):\/\/[^@\s]*@/g, 'redis$1://');
}

export async function openRedisPair(options: RedisPairOptions): Promise<RedisPair> {
  let redis: { createClient(options: Record<string, unknown>): RedisConnection };
  try {
    redis = (await import('@redis/client')) as unknown as typeof redis;
  } catch {
    throw new Error(`The ${options.label} needs the @redis/client package: npm install @redis/client`);
  }
  const report = options.onStateChange ?? ((state, detail) => logLine(state === 'connected' ? 'info' : 'warn', `${options.label} ${state}${detail ? `: ${detail}` : ''}`, { component: options.label, state }));
  const client = redis.createClient({
    url: options.url,
    // Fail fast while disconnected: neither a notification nor a task request is worth an unbounded queue.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  });
  const subscriber = client.duplicate();
  // undefined until the first outcome: Redis down (or a wrong password) at start is a state too, and must be
  // said once — otherwise a server that never connected logs nothing at all.
  let up: boolean | undefined;
  const onChange = (error?: unknown) => {
    const now = client.isReady && subscriber.isReady;
    if (now === up || (now === false && up === undefined && error === undefined)) return;
    up = now;
    report(now ? 'connected' : 'disconnected', now ? undefined : describeRedisError(error));
  };
  for (const c of [client, subscriber]) {
    c.on('error', (e) => onChange(e)); // node-redis emits 'error' on every failed reconnect: report transitions only
    c.on('ready', () => onChange());
    c.on('end', () => onChange());
  }
  const connected = Promise.all([client.connect(), subscriber.connect()]).then(() => undefined);
  connected.catch(() => {}); // surfaced to whoever awaits it; never an unhandled rejection
  return {
    client,
    subscriber,
    connected,
    async close() {
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}
