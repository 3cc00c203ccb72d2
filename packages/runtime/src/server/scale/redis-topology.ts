// The node-redis clients of one topology (redis-settings.ts): a client and a subscriber connection for a
// standalone server; createSentinel (follows the master the sentinels name, resubscribes after a failover);
// createCluster (routes each command by its key's slot, pub/sub sharded: SPUBLISH / SSUBSCRIBE). What differs
// between them stays here; the health state and the fail-fast rule are redis-layer.ts's.
//
// `@redis/client` (node-redis, Redis Inc.'s official client) is loaded only here, when Redis is configured,
// so servers that run one instance need not install it.
import type { RedisSettings, RedisTls } from './redis-settings.js';

/** The node-redis members used (the package is an optional peer: typed here, not imported). */
export interface RawClient {
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): unknown;
  on(event: string, listener: (arg?: unknown) => void): unknown;
  readonly isReady?: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: Record<string, unknown>): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  ping(): Promise<string>;
  duplicate(): RawClient;
  multi(): unknown;
  /** Standalone: (args); sentinel: (isReadonly, args); cluster: (firstKey, isReadonly, args). */
  sendCommand(...args: unknown[]): Promise<unknown>;
  // Cluster only.
  sPublish?(channel: string, message: string): Promise<number>;
  sSubscribe?(channel: string, listener: (message: string) => void): Promise<unknown>;
  sUnsubscribe?(channel: string, listener: (message: string) => void): Promise<unknown>;
  readonly masters?: readonly unknown[];
  nodeClient?(node: unknown): Promise<RawClient>;
}

interface RedisLib {
  createClient(options: Record<string, unknown>): RawClient;
  createSentinel(options: Record<string, unknown>): RawClient;
  createCluster(options: Record<string, unknown>): RawClient;
}

/** The clients of one topology, made (not connected) by makeClients. */
export interface TopologyClients {
  /** Commands (a cluster routes each by key; a sentinel client goes to the current master). */
  readonly client: RawClient;
  /** The pub/sub connection (standalone: a second connection; otherwise the client itself). */
  subscriber(): RawClient;
  /** One round trip to every master (a cluster's every shard): resolves when each answered PONG. */
  ping(): Promise<void>;
  /** Channel commands: SPUBLISH / SSUBSCRIBE in a cluster, so a message goes to one shard, not to all. */
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /**
   * WAIT on the connection that wrote `key` (the master of its slot): how many replicas acknowledged this
   * connection's writes so far within `ms`. A sentinel client keeps one master connection (node-redis'
   * default pool of 1) and a cluster one per node, so the write and its WAIT share a connection.
   */
  wait(key: string, replicas: number, ms: number): Promise<number>;
  /** Connects what exists (rejects when no node could be reached). */
  connect(): Promise<void>;
  destroy(): Promise<void>;
}

/** How long one connection attempt waits, and the longest pause between reconnection attempts. */
const CONNECT_TIMEOUT_MS = 2_000;
const MAX_RECONNECT_PAUSE_MS = 2_000;

export async function loadRedis(label: string): Promise<RedisLib> {
  try {
    return (await import('@redis/client')) as unknown as RedisLib;
  } catch {
    throw new Error(`The ${label} needs the @redis/client package: npm install @redis/client`);
  }
}

/**
 * `onError`: every connection's 'error' event (node-redis throws it if none listens), with whether it is down
 * now; `onReady`: a connection is (back) up — time for a round trip rather than waiting for the next heartbeat.
 */
export function makeClients(lib: RedisLib, settings: RedisSettings, onError: (error: unknown, down: boolean) => void, onReady: () => void): TopologyClients {
  const listen = (c: RawClient) => {
    c.on('error', (e) => onError(e, c.isReady === false));
    c.on('ready', onReady);
    return c;
  };
  const common = {
    // Fail fast while disconnected: neither a notification nor a task request is worth an unbounded queue.
    disableOfflineQueue: true,
    ...(settings.username !== undefined ? { username: settings.username } : {}),
    ...(settings.password !== undefined ? { password: settings.password } : {}),
  };
  const socket = { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_PAUSE_MS), ...tlsSocket(settings.tls) };
  if (settings.topology === 'standalone') {
    const client = listen(lib.createClient({ url: settings.url, ...common, socket }));
    // node-redis needs a connection of its own for SUBSCRIBE; connected with the first, so a listen stream's
    // first SUBSCRIBE costs one round trip, not a connection set-up.
    const sub = listen(client.duplicate());
    return {
      client,
      subscriber: () => sub,
      ping: async () => {
        if (sub.isReady !== true) throw new Error('subscriber connection down');
        await client.ping();
      },
      publish: (channel, message) => client.publish(channel, message),
      subscribe: (channel, listener) => sub.subscribe(channel, listener),
      unsubscribe: (channel, listener) => sub.unsubscribe(channel, listener),
      wait: async (_key, replicas, ms) => Number(await client.sendCommand(['WAIT', String(replicas), String(ms)])),
      connect: async () => void (await Promise.all([client.connect(), sub.connect()])),
      destroy: async () => void (await Promise.allSettled([sub.close(), client.close()])),
    };
  }
  const client = listen(
    settings.topology === 'sentinel'
      ? lib.createSentinel({
          name: settings.masterName,
          sentinelRootNodes: settings.sentinels.map((n) => ({ host: n.host, port: n.port })),
          nodeClientOptions: { ...common, socket },
          sentinelClientOptions: {
            socket,
            ...(settings.sentinelUsername !== undefined ? { username: settings.sentinelUsername } : {}),
            ...(settings.sentinelPassword !== undefined ? { password: settings.sentinelPassword } : {}),
          },
          // Look for a new master soon after the sentinels promoted one (default 10 s).
          scanInterval: 1_000,
        })
      : lib.createCluster({ rootNodes: settings.nodes.map((n) => ({ socket: { host: n.host, port: n.port, ...socket } })), defaults: { ...common, socket } }),
  );
  const cluster = settings.topology === 'cluster';
  return {
    client,
    subscriber: () => client,
    ping: async () => {
      if (!cluster) return void (await client.ping());
      const masters = client.masters ?? [];
      if (masters.length === 0) throw new Error('no cluster master known');
      await Promise.all(
        masters.map(async (m) => {
          try {
            await (await client.nodeClient!(m)).ping();
          } catch (e) {
            // Which shard is lost: the line an operator needs.
            const node = m as { host?: string; port?: number };
            throw new Error(`cluster master ${node.host}:${node.port}: ${e instanceof Error ? e.message : String(e)}`);
          }
        }),
      );
    },
    publish: (channel, message) => (cluster ? client.sPublish!(channel, message) : client.publish(channel, message)),
    subscribe: (channel, listener) => (cluster ? client.sSubscribe!(channel, listener) : client.subscribe(channel, listener)),
    unsubscribe: (channel, listener) => (cluster ? client.sUnsubscribe!(channel, listener) : client.unsubscribe(channel, listener)),
    wait: async (key, replicas, ms) => {
      const args = ['WAIT', String(replicas), String(ms)];
      return Number(await (cluster ? client.sendCommand(key, false, args) : client.sendCommand(false, args)));
    },
    connect: async () => void (await client.connect()),
    destroy: async () => void (await Promise.allSettled([Promise.resolve(client.destroy())])),
  };
}

function tlsSocket(tls: RedisTls | true | undefined): Record<string, unknown> {
  if (tls === undefined) return {};
  if (tls === true) return { tls: true };
  return { tls: true, ...(tls.ca !== undefined ? { ca: tls.ca } : {}), ...(tls.cert !== undefined ? { cert: tls.cert } : {}), ...(tls.key !== undefined ? { key: tls.key } : {}) };
}
