// Each principal's enabled toolsets (dynamic discovery, core/discovery.ts) in Redis, so that every instance
// behind a balancer answers tools/list and tools/call the same: one set per principal,
// `mcpgen:discovery:<server>:<principal hash>`, whose TTL starts again on every read and write (an idle
// principal starts over with the initial toolsets). Each operation is one script: read-and-touch and
// write-and-touch are atomic, whichever instance runs them.
import type { DiscoveryStore } from '../core/discovery.js';
import { describeRedisError } from './redis-connection.js';
import { useRedis, type RedisLayer, type RedisUseOptions } from './redis-layer.js';
import { principalScope } from './principal-scope.js';

export interface RedisDiscoveryStoreOptions extends RedisUseOptions {
  /** Names the keys, so several servers can share one Redis. */
  readonly serverName?: string;
  /** How long an idle principal's set is kept. Default 86 400 s (a day). */
  readonly ttlSeconds?: number;
}

export interface RedisDiscoveryStore extends DiscoveryStore {
  ready(): Promise<void>;
  close(): Promise<void>;
}

const MEMBERS = "local m = redis.call('SMEMBERS', KEYS[1]); if #m > 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end; return m";
const ADD = "local n = redis.call('SADD', KEYS[1], ARGV[2]); redis.call('EXPIRE', KEYS[1], ARGV[1]); return n";
const REMOVE = "local n = redis.call('SREM', KEYS[1], ARGV[2]); if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end; return n";

/**
 * With `url`, the connections open on first use (a server whose spec has no `discovery:` never opens them);
 * with the instance's shared `redis`, it runs on that. Each script touches one key: fine on a cluster.
 */
export function createRedisDiscoveryStore(options: RedisDiscoveryStoreOptions): RedisDiscoveryStore {
  const prefix = `mcpgen:discovery:${options.serverName ?? 'server'}:`;
  const ttl = String(options.ttlSeconds ?? 86_400);
  let used: { layer: RedisLayer; release: () => Promise<void> } | undefined;
  const open = () => (used ??= useRedis(options, 'redis discovery store')).layer;
  const run = async (script: string, principal: string, toolset?: string): Promise<unknown> => {
    try {
      // Fails fast while Redis does not answer (the first command waits a little for the first connection).
      return await open().commands.eval(script, { keys: [prefix + principalScope(principal)], arguments: toolset === undefined ? [ttl] : [ttl, toolset] });
    } catch (e) {
      // The caller sees -32603 (or a failed tool); the reason never holds the URL.
      throw new Error(`discovery store unavailable: ${describeRedisError(e) ?? 'not connected'}`);
    }
  };
  return {
    enabled: async (principal) => new Set(((await run(MEMBERS, principal)) as string[] | null) ?? []),
    enable: async (principal, toolset) => Number(await run(ADD, principal, toolset)) === 1,
    disable: async (principal, toolset) => Number(await run(REMOVE, principal, toolset)) === 1,
    ready: () => open().connected,
    close: async () => {
      await used?.release();
    },
  };
}
