// A ServerEventBus shared by every instance of a server through Redis pub/sub, so that a change
// published on one instance (`ctx.notify.*`) reaches `subscriptions/listen` streams held by any other.
//
// Delivery: an event goes to this instance's listeners at once (so one instance works with Redis down)
// and is published on the channel; each instance re-delivers what other instances published and skips
// its own messages, so every listener hears each event exactly once. Redis down: publishing fails fast
// (counted, never queued without bound), open listen streams stay open and hear local events, and the
// client reconnects and resubscribes by itself; events published during the outage are not replayed
// (list_changed / updated are hints: a listener re-reads what it cares about on the next one).
//
// `@redis/client` (node-redis, Redis Inc.'s official client) is loaded only when a bus is created, so
// servers that run one instance need not install it.
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';

/** Wire format version of the messages on the channel; a message of another version is dropped. */
export const REDIS_BUS_MESSAGE_VERSION = 1;
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_URI_LENGTH = 8 * 1024;
const KINDS: ReadonlySet<string> = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

export interface RedisEventBusOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. */
  readonly url: string;
  /** The pub/sub channel. Default `mcpgen:events:<serverName>` (or `mcpgen:events` without a name). */
  readonly channel?: string;
  /** Names the default channel, so several servers can share one Redis. */
  readonly serverName?: string;
  /** Connection state changes (lost, back) — never one line per request. Default: one stderr line each. */
  readonly onStateChange?: (state: 'connected' | 'disconnected', detail?: string) => void;
}

export interface RedisEventBusStats {
  /** Events this instance published on the channel. */
  readonly published: number;
  /** Events that could not be published (Redis unreachable): local listeners still heard them. */
  readonly publishFailed: number;
  /** Events from other instances delivered to this instance's listeners. */
  readonly received: number;
  /** Messages on the channel that were not a valid event of this format (dropped, never delivered). */
  readonly dropped: number;
}

export interface RedisEventBus extends ServerEventBus {
  /** Resolves once both connections are up and the channel is subscribed (tests, readiness probes). */
  ready(): Promise<void>;
  stats(): RedisEventBusStats;
  close(): Promise<void>;
}

/** The few node-redis client members used here (the package is an optional peer, loaded on demand). */
interface RedisConnection {
  connect(): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  duplicate(): RedisConnection;
  on(event: 'error' | 'ready' | 'end', listener: (arg?: unknown) => void): unknown;
  close(): Promise<void>;
  readonly isReady: boolean;
}

export async function createRedisEventBus(options: RedisEventBusOptions): Promise<RedisEventBus> {
  let redis: { createClient(options: Record<string, unknown>): RedisConnection };
  try {
    redis = (await import('@redis/client')) as unknown as typeof redis;
  } catch {
    throw new Error('The Redis event bus needs the @redis/client package: npm install @redis/client');
  }
  const channel = options.channel ?? (options.serverName !== undefined ? `mcpgen:events:${options.serverName}` : 'mcpgen:events');
  const origin = randomUUID();
  const report = options.onStateChange ?? ((state, detail) => process.stderr.write(`[mcpgen] redis event bus ${state}${detail ? `: ${detail}` : ''}\n`));
  const local = new InMemoryServerEventBus();
  const counts = { published: 0, publishFailed: 0, received: 0, dropped: 0 };

  const publisher = redis.createClient({
    url: options.url,
    // Fail fast while disconnected: a notification is not worth an unbounded queue.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  });
  const subscriber = publisher.duplicate();
  let up = false;
  const stateOf = () => publisher.isReady && subscriber.isReady;
  const onChange = (error?: unknown) => {
    const now = stateOf();
    if (now === up) return;
    up = now;
    report(now ? 'connected' : 'disconnected', now ? undefined : describe(error));
  };
  for (const c of [publisher, subscriber]) {
    c.on('error', (e) => onChange(e)); // node-redis emits 'error' on every failed reconnect: report transitions only
    c.on('ready', () => onChange());
    c.on('end', () => onChange());
  }

  const receive = (message: string) => {
    const event = parseMessage(message, origin);
    if (event === 'own') return;
    if (event === undefined) {
      counts.dropped++;
      return;
    }
    counts.received++;
    local.publish(event);
  };
  let closed = false;
  const connected = (async () => {
    // connect() keeps retrying through reconnectStrategy while Redis is down; the server starts regardless.
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, receive);
  })();
  connected.catch(() => {}); // surfaced through ready(); never an unhandled rejection

  return {
    publish(event: ServerEvent) {
      local.publish(event);
      if (closed) return;
      const message = JSON.stringify({ v: REDIS_BUS_MESSAGE_VERSION, from: origin, event });
      publisher.publish(channel, message).then(
        () => void counts.published++,
        () => void counts.publishFailed++,
      );
    },
    subscribe: (listener) => local.subscribe(listener),
    ready: () => connected,
    stats: () => ({ ...counts }),
    async close() {
      closed = true;
      await Promise.allSettled([subscriber.close(), publisher.close()]);
    },
  };
}

/** A message from the channel as an event, 'own' for this instance's echo, undefined when invalid. */
export function parseMessage(message: string, origin: string): ServerEvent | 'own' | undefined {
  if (typeof message !== 'string' || message.length > MAX_MESSAGE_BYTES) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed.v !== REDIS_BUS_MESSAGE_VERSION || typeof parsed.from !== 'string') return undefined;
  const event = parsed.event;
  if (!isObject(event) || typeof event.kind !== 'string' || !KINDS.has(event.kind)) return undefined;
  if (parsed.from === origin) return 'own';
  if (event.params !== undefined && !isObject(event.params)) return undefined;
  const params = event.params === undefined ? {} : { params: event.params as Record<string, unknown> };
  if (event.kind === 'resource_updated') {
    if (typeof event.uri !== 'string' || event.uri.length === 0 || event.uri.length > MAX_URI_LENGTH) return undefined;
    return { kind: 'resource_updated', uri: event.uri, ...params };
  }
  return { kind: event.kind as 'tools_list_changed' | 'prompts_list_changed' | 'resources_list_changed', ...params };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(e: unknown): string | undefined {
  return e instanceof Error ? e.message : undefined;
}
