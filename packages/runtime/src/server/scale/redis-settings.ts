// Where an instance's Redis is and how to reach it: one standalone server (a URL), a master behind Sentinel
// (the sentinels and the master's name) or a Redis Cluster (a few seed nodes), each over TLS or not.
// Read from the environment by entry/redis-env.ts; turned into node-redis clients by redis-topology.ts.

export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** PEM text (the entry point reads the files): a private CA, and a client certificate with its key. */
export interface RedisTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

export type RedisSettings =
  | {
      readonly topology: 'standalone';
      /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
      readonly url: string;
      readonly username?: string;
      readonly password?: string;
      readonly tls?: RedisTls;
    }
  | {
      readonly topology: 'sentinel';
      readonly sentinels: readonly RedisNode[];
      /** The master's name in the sentinels' configuration (`sentinel monitor <name> …`). */
      readonly masterName: string;
      /** The data nodes' credentials. */
      readonly username?: string;
      readonly password?: string;
      /** The sentinels' own, when they differ (`requirepass` on the sentinels). */
      readonly sentinelUsername?: string;
      readonly sentinelPassword?: string;
      /** TLS to the data nodes and the sentinels; true: with the system's CAs. */
      readonly tls?: RedisTls | true;
    }
  | {
      readonly topology: 'cluster';
      /** Seed nodes: the client discovers the others (and the slots) from any one of them. */
      readonly nodes: readonly RedisNode[];
      readonly username?: string;
      readonly password?: string;
      readonly tls?: RedisTls | true;
    };

/** One line for logs and errors: the topology and where, never a password. */
export function describeRedis(settings: RedisSettings): string {
  const list = (nodes: readonly RedisNode[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');
  if (settings.topology === 'sentinel') return `sentinel ${settings.masterName} via ${list(settings.sentinels)}`;
  if (settings.topology === 'cluster') return `cluster via ${list(settings.nodes)}`;
  try {
    const url = new URL(settings.url);
    return `standalone ${url.protocol === 'rediss:' ? 'rediss' : 'redis'}://${url.host}`;
  } catch {
    return 'standalone';
  }
}
