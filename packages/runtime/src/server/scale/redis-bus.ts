// A ServerEventBus shared by every instance of a server through Redis pub/sub, so that a change
// published on one instance (`ctx.notify.*`) reaches `subscriptions/listen` streams held by any other.
//
// Delivery: an event goes to this instance's listeners at once (so one instance works with Redis down)
// and is published on the channel; each instance re-delivers what other instances published and skips
// its own messages, so every listener hears each event exactly once. An instance is subscribed to the
// channel only while it has listeners (redis-subscription.ts): one without listen streams is sent nothing,
// its own echo included, and costs neither itself nor redis-server anything per event. And an instance
// publishes only while some instance listens (redis-presence.ts): once a PUBLISH reached no subscriber it
// stops, until an instance that subscribes announces it and every instance has acknowledged. A listener
// hears other instances' events once `listening()` has resolved (Redis confirmed the SUBSCRIBE and every
// instance acknowledged the announcement); the HTTP transport holds a listen stream's acknowledgement
// until then. Redis down: publishing fails fast
// (counted, never queued without bound), open listen streams stay open and hear local events, and the
// client reconnects and resubscribes by itself; events published during the outage are not replayed
// (list_changed / updated are hints: a listener re-reads what it cares about on the next one).
//
// In a cluster the channels are sharded (SPUBLISH / SSUBSCRIBE): each goes to the one shard its name hashes to.
// The connections (and the optional `@redis/client` peer) come from redis-layer.ts, shared with the other uses.
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { useRedis, type RedisUseOptions } from './redis-layer.js';
import { channelPresence } from './redis-presence.js';
import { channelSubscription } from './redis-subscription.js';

/** Wire format version of the messages on the channel; a message of another version is dropped. */
export const REDIS_BUS_MESSAGE_VERSION = 1;
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_URI_LENGTH = 8 * 1024;
/** A listen acknowledgement waits this long after Redis's last reply (SUBSCRIBE, announcement, ack): Redis hangs. */
const LISTENING_IDLE_MS = 2_000;
/** And this long in all: several slow round trips add up past the first bound while Redis still answers. */
const LISTENING_MAX_WAIT_MS = 10_000;
const KINDS: ReadonlySet<string> = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

export interface RedisEventBusOptions extends RedisUseOptions {
  /** The pub/sub channel. Default `mcpgen:events:<serverName>` (or `mcpgen:events` without a name). */
  readonly channel?: string;
  /** Names the default channel, so several servers can share one Redis. */
  readonly serverName?: string;
  /** How long the channel stays subscribed after the last listener left (a stream that reopens finds it). Default 1000. */
  readonly unsubscribeAfterMs?: number;
}

export interface RedisEventBusStats {
  /** Events this instance published on the channel. */
  readonly published: number;
  /** Events that could not be published (Redis unreachable): local listeners still heard them. */
  readonly publishFailed: number;
  /** Events not published because no instance listened (the last PUBLISH reached none and none announced since). */
  readonly skipped: number;
  /** Events from other instances delivered to this instance's listeners. */
  readonly received: number;
  /** Messages on the channel that were not a valid event of this format (dropped, never delivered). */
  readonly dropped: number;
}

export interface RedisEventBus extends ServerEventBus {
  /** Resolves once Redis first answered (tests, start-up). The channel is subscribed only while listeners are: see listening(). */
  ready(): Promise<void>;
  /**
   * Resolves once this instance's listeners hear events published on other instances (Redis confirmed the
   * subscription that the first listener started, and every instance acknowledged it), at once without
   * listeners or while Redis is unreachable, 2 s after Redis last replied, 10 s at most. The HTTP transport awaits it before a listen stream's acknowledgement goes out.
   */
  listening(): Promise<void>;
  /** The channel is subscribed now (this instance has listeners, or had them less than `unsubscribeAfterMs` ago). */
  subscribed(): boolean;
  /** Redis answers now (the health state of redis-layer.ts: false while it is unreachable or frozen). */
  up(): boolean;
  stats(): RedisEventBusStats;
  close(): Promise<void>;
}

export async function createRedisEventBus(options: RedisEventBusOptions): Promise<RedisEventBus> {
  const channel = options.channel ?? (options.serverName !== undefined ? `mcpgen:events:${options.serverName}` : 'mcpgen:events');
  const origin = randomUUID();
  const local = new InMemoryServerEventBus();
  const counts = { published: 0, publishFailed: 0, skipped: 0, received: 0, dropped: 0 };
  const { layer, release } = useRedis(options, 'redis event bus');
  const publisher = layer.commands;
  const subscriber = layer.subscriber;

  // This instance's own messages come back from Redis: recognised by their first bytes, not parsed.
  const ownPrefix = `{"v":${REDIS_BUS_MESSAGE_VERSION},"from":${JSON.stringify(origin)},`;
  let listeners = 0;
  const receive = (message: string) => {
    // Nobody to deliver to (the last listener left during the grace period): not even parsed.
    if (listeners === 0 || (typeof message === 'string' && message.startsWith(ownPrefix))) return;
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
  // The layer keeps reconnecting while Redis is down; the server starts regardless.
  const connected = layer.connected;
  const presence = channelPresence(publisher, subscriber, channel);
  const channelState = channelSubscription(subscriber, channel, receive, options.unsubscribeAfterMs ?? 1_000, (progress) => presence.announce(LISTENING_IDLE_MS, LISTENING_MAX_WAIT_MS, progress));

  return {
    publish(event: ServerEvent) {
      local.publish(event);
      if (closed) return;
      if (!presence.shouldPublish()) return void counts.skipped++; // no instance listens (redis-presence.ts)
      // Not awaited: node-redis writes what a tick published in one write, after the tool's answer went out
      // (publishing on the subscribed connection, or pacing writes to one per 2 ms, measured no better:
      // BENCHMARKS.md, "Servers, round three sixth session"). A failure is counted, never thrown at the handler.
      const sentAt = presence.epoch();
      publisher.publish(channel, `${ownPrefix}"event":${JSON.stringify(event)}}`).then(
        (receivers) => {
          counts.published++;
          presence.published(receivers, sentAt);
        },
        () => void counts.publishFailed++,
      );
    },
    subscribe(listener) {
      const off = local.subscribe(listener);
      if (++listeners === 1) channelState.hold();
      let live = true;
      return () => {
        if (!live) return;
        live = false;
        off();
        if (--listeners === 0) channelState.release();
      };
    },
    ready: () => connected,
    listening: () => (listeners === 0 ? Promise.resolve() : channelState.settled(LISTENING_IDLE_MS, LISTENING_MAX_WAIT_MS)),
    subscribed: () => channelState.active(),
    up: () => !closed && layer.up(),
    stats: () => ({ ...counts }),
    async close() {
      closed = true;
      channelState.close();
      await release();
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

/**
 * The answer to a request, held — when the request is `subscriptions/listen` and the bus subscribes on
 * demand (this one: `listening()`) — until the stream it opened hears other instances' events too. The
 * stream subscribed to the bus as it was served and its acknowledgement is the answer's first bytes: so an
 * event published anywhere after the client saw the acknowledgement reaches the stream. Any other answer,
 * or any other bus, at once.
 */
export async function whenListening<T>(bus: ServerEventBus | undefined, body: unknown, answer: T): Promise<T> {
  const listening = (bus as Partial<RedisEventBus> | undefined)?.listening;
  if (typeof listening === 'function' && (body as { method?: unknown } | null)?.method === 'subscriptions/listen') await listening.call(bus);
  return answer;
}
