// Rate limits per caller: server-wide (every request) and per tool (its tools/call), counted by
// rate-limiter-flexible (a well-kept limiter, optional peer loaded only when limits are set): in this process,
// or in Redis so that every instance behind a balancer shares one count. The caller is the token's principal
// (hashed: no subject or client id is written to Redis), else the client's address, else the process (stdio).
// While Redis is unreachable each instance falls back to its own in-memory count (the limiter's insurance
// limiter) rather than refusing everyone or letting everyone through. With Redis, points are taken in chunks
// (rate-reserve.ts): a limit of 200 or more costs a Redis call per 1 % of it, not per request.
import { createHash } from 'node:crypto';
import { useRedis, type RedisLayer } from '../scale/redis-layer.js';
import { ReservingCounter, type PointStore, type Taken } from './rate-reserve.js';

/** `points` requests per `durationSeconds`, per caller. */
export interface RateLimitRule {
  readonly points: number;
  readonly durationSeconds: number;
}

export interface RateLimitSettings {
  /** Every request (tools/call, lists, reads…) of one caller. */
  readonly server?: RateLimitRule;
  /** tools/call of one tool by one caller, by tool name. */
  readonly tools?: Readonly<Record<string, RateLimitRule>>;
  /** Count in this Redis (every instance with the same URL and server name shares the count). */
  readonly redisUrl?: string;
  /** Where the per-tool limits were set (`MCPGEN_RATE_LIMIT_TOOLS`): named when one names an unknown tool. */
  readonly toolsSource?: string;
  /** Count in the instance's shared Redis (openRedis; any topology). Wins over redisUrl. */
  readonly redis?: RedisLayer;
}

/** Refused: when to come back. */
export interface RateLimited {
  readonly retryAfterSeconds: number;
  readonly scope: 'server' | 'tool';
}

export interface RateLimiter {
  /** Count one request of `caller` (a callerKey) and `tool` (tools/call only); the refusal, or undefined to go on. */
  check(caller: string, tool: string | undefined): Promise<RateLimited | undefined>;
  /** The tools with a limit of their own (a name the server lacks is refused at start). */
  readonly tools: readonly string[];
  /** Where they were set (RateLimitSettings.toolsSource). */
  readonly toolsSource?: string | undefined;
  close(): Promise<void>;
}

/** The JSON-RPC error code of a refusal: application-defined, outside -32768…-32000 (rules E4), read as HTTP's 429. */
export const RATE_LIMITED_CODE = 429;

type Lib = {
  RateLimiterMemory: new (o: Record<string, unknown>) => PointStore;
  RateLimiterRedis: new (o: Record<string, unknown>) => PointStore;
};

// A specifier in a variable: bundlers (esbuild for workers) leave an optional peer alone instead of pulling it in.
const OPTIONAL_PEER: string = 'rate-limiter-flexible';

async function loadLimiter(): Promise<Lib> {
  try {
    const m = (await import(OPTIONAL_PEER)) as Lib & { default?: Lib };
    return m.default ?? m;
  } catch {
    throw new Error('rate limits need the rate-limiter-flexible package: npm install rate-limiter-flexible');
  }
}

export async function createRateLimiter(settings: RateLimitSettings, serverName: string): Promise<RateLimiter> {
  const lib = await loadLimiter();
  const used = settings.redis === undefined && settings.redisUrl === undefined ? undefined : useRedis({ ...(settings.redis ? { redis: settings.redis } : { url: settings.redisUrl! }) }, 'redis rate limiter');
  // Start counting in Redis, not in the fallback, when Redis is there: wait for it a little (never for long:
  // the server starts with Redis down, and readiness says so).
  if (used !== undefined) await Promise.race([used.layer.connected, new Promise((r) => setTimeout(r, 2000).unref())]);
  // Its isReady follows the layer's health: while Redis does not answer, the insurance limiter counts at once.
  const storeClient = await used?.layer.limiterClient();
  const make = (rule: RateLimitRule, name: string): ReservingCounter => {
    const base = { points: rule.points, duration: rule.durationSeconds, keyPrefix: `mcpgen:rl:${serverName}:${name}` };
    // In this process every point is counted as it is spent: nothing to save by reserving.
    if (storeClient === undefined) return new ReservingCounter(new lib.RateLimiterMemory(base), rule.points, { chunk: 1 });
    // rejectIfRedisNotReady: no command waits for a reconnect; the insurance limiter counts meanwhile.
    const store = new lib.RateLimiterRedis({ ...base, storeClient, useRedisPackage: true, rejectIfRedisNotReady: true, insuranceLimiter: new lib.RateLimiterMemory(base) });
    return new ReservingCounter(store, rule.points);
  };
  const server = settings.server === undefined ? undefined : make(settings.server, 'server');
  const tools = new Map(Object.entries(settings.tools ?? {}).map(([name, rule]) => [name, make(rule, `tool:${name}`)]));
  return {
    async check(caller, tool) {
      if (server !== undefined) {
        const taken = server.take(caller);
        // A local budget answers synchronously: no await (and no microtask) then.
        const ms = typeof taken === 'object' ? await taken : taken;
        if (ms !== undefined) return refusal(ms, 'server');
      }
      const perTool = tool === undefined ? undefined : tools.get(tool);
      if (perTool === undefined) return undefined;
      const taken = perTool.take(caller);
      const ms = typeof taken === 'object' ? await taken : taken;
      return ms === undefined ? undefined : refusal(ms, 'tool');
    },
    tools: [...tools.keys()],
    toolsSource: settings.toolsSource,
    close: async () => {
      // Unspent reserved points go back to Redis for the other instances.
      await Promise.all([server, ...tools.values()].map((c) => c?.refund()));
      await used?.release();
    },
  };
}

/**
 * The spec's limits for a server built in code without a limiter (createMcpgenServer is synchronous): the
 * library is loaded on the first request, and counts are kept in this process.
 */
export function lazyRateLimiter(settings: RateLimitSettings, serverName: string): RateLimiter {
  let made: Promise<RateLimiter> | undefined;
  const limiter = () => (made ??= createRateLimiter(settings, serverName));
  return {
    tools: Object.keys(settings.tools ?? {}),
    toolsSource: settings.toolsSource,
    check: async (caller, tool) => (await limiter()).check(caller, tool),
    close: async () => (made === undefined ? undefined : (await made).close()),
  };
}

/** The spec's limits under the deployment's: its server-wide rule replaces the spec's, its tool rules replace those tools'. */
export function mergeRateLimits(declared: Omit<RateLimitSettings, 'redisUrl'> | undefined, deployed: RateLimitSettings | undefined): RateLimitSettings | undefined {
  if (declared === undefined) return deployed;
  const server = deployed?.server ?? declared.server;
  const tools = { ...declared.tools, ...deployed?.tools };
  return { ...(server !== undefined ? { server } : {}), ...(Object.keys(tools).length > 0 ? { tools } : {}) };
}

/** A refusal, ms before the window ends: when to come back (at least 1 s). */
function refusal(ms: NonNullable<Taken>, scope: RateLimited['scope']): RateLimited {
  return { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)), scope };
}

/** Who is counted: the principal (hashed), else the client address, else the process. */
export function callerKey(principalKey: string, address: string | undefined): string {
  if (principalKey !== '') return `p:${createHash('sha256').update(principalKey).digest('base64url').slice(0, 22)}`;
  return address !== undefined ? `a:${address}` : 'local';
}

/** The JSON-RPC error of a refusal (the HTTP face sends it with 429 and Retry-After). */
export function rateLimitedError(refused: RateLimited): { code: number; message: string; data: { retryAfterSeconds: number; scope: string } } {
  return { code: RATE_LIMITED_CODE, message: `Rate limit exceeded: retry after ${refused.retryAfterSeconds} s`, data: { retryAfterSeconds: refused.retryAfterSeconds, scope: refused.scope } };
}
