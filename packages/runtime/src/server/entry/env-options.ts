// Server options a deployed entry point takes from its environment (the generated main.ts calls this),
// so the same build runs as one instance or as many behind a balancer:
//   REDIS_URL                           change notifications, tasks, discovery's enabled toolsets and rate limits shared through Redis (default: in process)
//   MCPGEN_REDIS_SENTINELS, MCPGEN_REDIS_CLUSTER, …   the same through Sentinel or a Redis Cluster, with TLS: redis-env.ts
//   MCPGEN_REDIS_CHANNEL                the pub/sub channel (default mcpgen:events:<server name>)
//   MCPGEN_REQUEST_STATE_KEYS           MRTR requestState keys, `id:secret,…`, the signing key first
//   MCPGEN_REQUEST_STATE_TTL_SECONDS    how long a requestState stays valid (default 600)
//   MCPGEN_TASK_LEASE_MS                owner lease of running tasks (default 15000; a dead owner's tasks fail within 4/3 of it)
//   MCPGEN_TASK_RESULT_RETRY_MS         how long a task result is retried through Redis outages (default 60000)
//   MCPGEN_WORKER_CONCURRENCY           task handlers a --worker runs at once (default 16)
//   MCPGEN_SKILLS_DIR                   serve the skills in this folder (read at start-up) instead of the embedded ones
//   MCPGEN_TELEMETRY                    `otel`: spans and metrics through @opentelemetry/api (loaded only then); default off
//   MCPGEN_ACCESS_LOG                   `json`: one JSON line per request on stderr (method, tool, duration, outcome…); default off
//   MCPGEN_RATE_LIMIT                   requests per caller, server-wide: `100/60` (per 60 s), `100/1m`
//   MCPGEN_RATE_LIMIT_TOOLS             per caller and tool: `search=10/60,add=5/1s` (counted in Redis with REDIS_URL)
//   MCPGEN_LOG_FORMAT                   `json`: the runtime's stderr lines as JSON objects; default text
//   MCPGEN_LOG_LEVEL                    debug, info (default), warn or error: lines below it are dropped
import type { ServerOptions } from '../dispatch/create-server.js';
import { createRedisEventBus } from '../scale/redis-bus.js';
import { createRedisDiscoveryStore } from '../scale/discovery-redis.js';
import { parseKeyList, RequestStateKeyRing } from '../scale/request-state.js';
import { skillsFromFolder } from '../extensions/skills-folder.js';
import { createRedisTaskStore } from '../tasks/redis-store.js';
import { loadOpenTelemetry } from '../ops/telemetry.js';
import { createRateLimiter, mergeRateLimits, type RateLimitSettings } from '../ops/rate-limit.js';
import type { ServerDefinition } from '../core/definition.js';
import { jsonAccessLog } from '../ops/access-log.js';
import { configureLog, LOG_LEVELS, type LogFormat, type LogLevel } from '../core/log.js';
import { isError, rateRule, toolRates } from './settings.js';
import { openRedis, type RedisLayer } from '../scale/redis-layer.js';
import { redisFromEnv } from './redis-env.js';

/** Options from the environment; bad configuration is one line on stderr and exit 1 (entry points only). */
export async function serverOptionsFromEnv(serverName: string, env: NodeJS.ProcessEnv = process.env, declaredLimits?: ServerDefinition['rateLimits']): Promise<ServerOptions> {
  try {
    return await readOptions(serverName, env, declaredLimits);
  } catch (e) {
    process.stderr.write(`mcpgen: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}

export async function readOptions(serverName: string, env: NodeJS.ProcessEnv, declaredLimits?: ServerDefinition['rateLimits']): Promise<ServerOptions> {
  const options: { -readonly [K in keyof ServerOptions]: ServerOptions[K] } = {};
  const ttlSeconds = positiveSeconds('MCPGEN_REQUEST_STATE_TTL_SECONDS', env.MCPGEN_REQUEST_STATE_TTL_SECONDS);
  if (env.MCPGEN_REQUEST_STATE_KEYS) options.requestStateKeys = new RequestStateKeyRing(parseKeyList(env.MCPGEN_REQUEST_STATE_KEYS), ttlSeconds);
  else if (ttlSeconds !== undefined) options.requestStateTtlSeconds = ttlSeconds;
  const settings = redisFromEnv(env);
  // One client (and one subscriber) for every use, one health state, one line per state change (scale/redis-layer.ts).
  const redis: RedisLayer | undefined = settings === undefined ? undefined : openRedis(settings);
  if (redis !== undefined) {
    options.bus = await createRedisEventBus({ redis, serverName, ...(env.MCPGEN_REDIS_CHANNEL ? { channel: env.MCPGEN_REDIS_CHANNEL } : {}) });
    // Not ready while Redis does not answer a PING in time: this instance's notifications and tasks would not reach the others.
    options.readiness = [{ name: 'redis', ready: () => redis.up() }];
    // Keys and channel under mcpgen:tasks:<server name>: a task created on one instance is seen by all.
    options.taskStore = await createRedisTaskStore({ redis, serverName });
    // Each principal's enabled toolsets (a spec with `discovery:`).
    options.discoveryStore = createRedisDiscoveryStore({ redis, serverName });
  }
  const lease = positiveMs(env, 'MCPGEN_TASK_LEASE_MS');
  if (lease !== undefined) options.taskLeaseMs = lease;
  const retry = positiveMs(env, 'MCPGEN_TASK_RESULT_RETRY_MS');
  if (retry !== undefined) options.taskResultRetryMs = retry;
  const concurrency = positiveMs(env, 'MCPGEN_WORKER_CONCURRENCY', 'handlers');
  if (concurrency !== undefined) options.taskWorkerConcurrency = concurrency;
  if (env.MCPGEN_SKILLS_DIR) options.skills = await skillsFromFolder(env.MCPGEN_SKILLS_DIR);
  // The spec's limits (the generated main.ts passes them) under the environment's, shared through Redis too.
  const limits = mergeRateLimits(declaredLimits, rateLimitsFromEnv(env));
  if (limits !== undefined) options.rateLimiter = await createRateLimiter({ ...limits, ...(redis !== undefined ? { redis } : {}) }, serverName);
  configureLog(logSettings(env));
  const accessLog = env.MCPGEN_ACCESS_LOG ?? '';
  if (accessLog === 'json') options.accessLog = jsonAccessLog();
  else if (accessLog !== '' && accessLog !== 'off') throw new Error(`MCPGEN_ACCESS_LOG must be json or off, got ${JSON.stringify(accessLog)}`);
  const telemetry = env.MCPGEN_TELEMETRY ?? '';
  if (telemetry === 'otel') options.telemetry = await loadOpenTelemetry();
  else if (telemetry !== '' && telemetry !== 'off') throw new Error(`MCPGEN_TELEMETRY must be otel or off, got ${JSON.stringify(telemetry)}`);
  return options;
}

// Every variable is checked here, at start (issue 25 item 11): a value that only fails on first use would let
// the server start and then answer every affected call -32603.

/** A whole number of seconds > 0, or undefined when unset or empty. Strict: `abc`, `0`, `1.5`, ` 5` are refused. */
function positiveSeconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(Number.isSafeInteger(n) && n > 0)) throw new Error(`${name} must be a positive whole number of seconds, not ${JSON.stringify(value)}`);
  return n;
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, unit = 'milliseconds'): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number of ${unit} (got ${JSON.stringify(raw)})`);
  return n;
}

/** MCPGEN_RATE_LIMIT and MCPGEN_RATE_LIMIT_TOOLS, checked; undefined when neither is set. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitSettings | undefined {
  const server = env.MCPGEN_RATE_LIMIT ? rateRule(env.MCPGEN_RATE_LIMIT, 'MCPGEN_RATE_LIMIT') : undefined;
  if (server !== undefined && isError(server)) throw new Error(server.error);
  const tools = env.MCPGEN_RATE_LIMIT_TOOLS ? toolRates(env.MCPGEN_RATE_LIMIT_TOOLS, 'MCPGEN_RATE_LIMIT_TOOLS') : undefined;
  if (tools !== undefined && isError(tools)) throw new Error(tools.error);
  if (server === undefined && tools === undefined) return undefined;
  return { ...(server !== undefined ? { server } : {}), ...(tools !== undefined ? { tools } : {}) };
}

/** MCPGEN_LOG_FORMAT and MCPGEN_LOG_LEVEL, checked (unset: text, info). */
function logSettings(env: NodeJS.ProcessEnv): { format: LogFormat; level: LogLevel } {
  const format = env.MCPGEN_LOG_FORMAT || 'text';
  if (format !== 'text' && format !== 'json') throw new Error(`MCPGEN_LOG_FORMAT must be text or json, got ${JSON.stringify(format)}`);
  const level = env.MCPGEN_LOG_LEVEL || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`MCPGEN_LOG_LEVEL must be ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
  return { format, level: level as LogLevel };
}
