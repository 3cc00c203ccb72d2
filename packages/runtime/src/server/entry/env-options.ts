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
import { configureLog, LOG_LEVELS, logText, type LogFormat, type LogLevel } from '../core/log.js';
import { isError, rateRule, toolRates } from './settings.js';
import { openRedis, type RedisLayer } from '../scale/redis-layer.js';
import { redisFromEnv } from './redis-env.js';

/** Options from the environment; bad configuration is one line on stderr and exit 1 (entry points only). */
export async function serverOptionsFromEnv(serverName: string, env: NodeJS.ProcessEnv = process.env, declaredLimits?: ServerDefinition['rateLimits']): Promise<ServerOptions> {
  try {
    return await readOptions(serverName, env, declaredLimits);
  } catch (e) {
    logText('error', e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}

export async function readOptions(serverName: string, env: NodeJS.ProcessEnv, declaredLimits?: ServerDefinition['rateLimits']): Promise<ServerOptions> {
  const settings = envSettings(env);
  // First: every line written from here on (Redis state, refused settings) follows the format.
  configureLog(settings.log);
  const options: { -readonly [K in keyof ServerOptions]: ServerOptions[K] } = {};
  if (settings.requestStateKeys !== undefined) options.requestStateKeys = settings.requestStateKeys;
  else if (settings.requestStateTtlSeconds !== undefined) options.requestStateTtlSeconds = settings.requestStateTtlSeconds;
  const redis: RedisLayer | undefined = settings.redis === undefined ? undefined : openRedis(settings.redis);
  if (redis !== undefined) {
    // One client (and one subscriber) for every use, one health state, one line per state change (scale/redis-layer.ts).
    options.bus = await createRedisEventBus({ redis, serverName, ...(env.MCPGEN_REDIS_CHANNEL ? { channel: env.MCPGEN_REDIS_CHANNEL } : {}) });
    // Not ready while Redis does not answer a PING in time: this instance's notifications and tasks would not reach the others.
    options.readiness = [{ name: 'redis', ready: () => redis.up() }];
    // Keys and channel under mcpgen:tasks:<server name>: a task created on one instance is seen by all.
    options.taskStore = await createRedisTaskStore({ redis, serverName });
    // Each principal's enabled toolsets (a spec with `discovery:`).
    options.discoveryStore = createRedisDiscoveryStore({ redis, serverName });
  }
  if (settings.taskLeaseMs !== undefined) options.taskLeaseMs = settings.taskLeaseMs;
  if (settings.taskResultRetryMs !== undefined) options.taskResultRetryMs = settings.taskResultRetryMs;
  if (settings.taskWorkerConcurrency !== undefined) options.taskWorkerConcurrency = settings.taskWorkerConcurrency;
  if (env.MCPGEN_SKILLS_DIR) options.skills = await skillsFromFolder(env.MCPGEN_SKILLS_DIR);
  // The spec's limits (the generated main.ts passes them) under the environment's, shared through Redis too.
  const limits = mergeRateLimits(declaredLimits, settings.rateLimits);
  const source = settings.rateLimits?.tools !== undefined ? { toolsSource: 'MCPGEN_RATE_LIMIT_TOOLS' } : {};
  if (limits !== undefined) options.rateLimiter = await createRateLimiter({ ...limits, ...source, ...(redis !== undefined ? { redis } : {}) }, serverName);
  if (settings.accessLog) options.accessLog = jsonAccessLog();
  if (settings.telemetry) options.telemetry = await loadOpenTelemetry();
  return options;
}

/**
 * Every variable, checked and parsed with nothing connected, loaded or read: serving (readOptions) and
 * `--print-config` refuse the same values with the same message.
 */
export function envSettings(env: NodeJS.ProcessEnv) {
  const log = logSettings(env);
  const requestStateTtlSeconds = positiveSeconds('MCPGEN_REQUEST_STATE_TTL_SECONDS', env.MCPGEN_REQUEST_STATE_TTL_SECONDS);
  const requestStateKeys = env.MCPGEN_REQUEST_STATE_KEYS ? new RequestStateKeyRing(parseKeyList(env.MCPGEN_REQUEST_STATE_KEYS), requestStateTtlSeconds) : undefined;
  return {
    log,
    requestStateTtlSeconds,
    requestStateKeys,
    redis: redisFromEnv(env),
    taskLeaseMs: positiveMs(env, 'MCPGEN_TASK_LEASE_MS'),
    taskResultRetryMs: positiveMs(env, 'MCPGEN_TASK_RESULT_RETRY_MS'),
    taskWorkerConcurrency: positiveMs(env, 'MCPGEN_WORKER_CONCURRENCY', 'handlers'),
    rateLimits: rateLimitsFromEnv(env),
    accessLog: switchedOn(env, 'MCPGEN_ACCESS_LOG', 'json'),
    telemetry: switchedOn(env, 'MCPGEN_TELEMETRY', 'otel'),
  };
}

/** A variable that is `on` or off (`off`, empty, unset); anything else is refused. */
function switchedOn(env: NodeJS.ProcessEnv, name: string, on: string): boolean {
  const value = env[name] ?? '';
  if (value !== on && value !== '' && value !== 'off') throw new Error(`${name} must be ${on} or off, got ${JSON.stringify(value)}`);
  return value === on;
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
