// What every Redis use of an instance (event bus, task store, discovery store, rate limiter) sees of Redis:
// commands and a subscriber behind one interface, whatever the topology (redis-topology.ts) — so each use
// gets Sentinel, Cluster, TLS, failover and the health state (redis-layer.ts) once.

/** The few commands the uses need. In a cluster each routes by its first key (or, for PUBLISH, by channel). */
export interface RedisConnection {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: Record<string, unknown>): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** PUBLISH (SPUBLISH in a cluster): the number of subscribers reached. */
  publish(channel: string, message: string): Promise<number>;
  /** WAIT: how many replicas acknowledged this connection's writes (on `key`'s master) within `ms`. */
  wait(key: string, replicas: number, ms: number): Promise<number>;
  /** Redis answered the last round trip in time (the health state, redis-layer.ts). */
  readonly isReady: boolean;
}

/** The pub/sub side (SUBSCRIBE; SSUBSCRIBE in a cluster). node-redis resubscribes by itself after a reconnection. */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Redis answers now. */
  readonly isReady: boolean;
  /** `ready`: Redis answers again after an outage (listeners re-announce what they may have missed). */
  on(event: 'ready', listener: () => void): unknown;
}

/** Redis did not answer, refused the password or failed a command: the error a request answers with. */
export class RedisUnavailable extends Error {
  constructor(readonly detail: string | undefined) {
    super(`Redis unavailable${detail ? `: ${detail}` : ''}`);
    this.name = 'RedisUnavailable';
  }
}

/** A node-redis error as one line: the reason (refused, WRONGPASS, NOAUTH…), never the URL with its password. */
export function describeRedisError(error: unknown): string | undefined {
  if (error instanceof RedisUnavailable) return error.detail;
  if (!(error instanceof Error)) return undefined;
  const causes = error instanceof AggregateError ? error.errors.filter((e): e is Error => e instanceof Error).map((e) => e.message) : [];
  return (error.message || causes.join('; ') || error.name).replace(/redis(s?):\/\/[^@\s]*@/g, 'redis$1://');
}
