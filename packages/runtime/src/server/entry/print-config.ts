// `main.js --print-config`: every setting the entry point would use, resolved from flags, environment and
// defaults, with where each came from — and no secret: Redis passwords and requestState key secrets are
// masked (the key ids stay, so two instances can be compared). Wrong values are refused as when serving.
import { parseKeyList } from '../scale/request-state.js';
import { mergeRateLimits, type RateLimitSettings } from '../ops/rate-limit.js';
import { envSettings } from './env-options.js';
import { unknownLimitedTool } from './settings.js';
import { printableRedis } from './redis-env.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The parsed command line (entry-args.ts's EntryArgs, written out here so the two files do not import each other). */
type PrintedArgs =
  | { readonly transport: 'stdio' }
  | {
      readonly transport: 'http';
      readonly host: string;
      readonly port: number;
      readonly allowedHosts: readonly string[] | '*' | undefined;
      readonly allowedOrigins: readonly string[] | '*' | undefined;
      readonly healthPath?: string | false;
      readonly readyPath?: string | false;
      readonly shutdownDelaySeconds?: number;
      readonly auth?: { readonly authorizationServers?: readonly string[]; readonly resource?: string };
    };

/** The settings as printed: name → value (already masked). */
export function printableConfig(args: PrintedArgs, env: Env, declaredLimits?: Omit<RateLimitSettings, 'redisUrl'> | undefined, serverTools?: readonly string[]): Record<string, unknown> {
  // What serving refuses is refused here, with the same message (readOptions and createMcpgenServer).
  const checked = envSettings(env as NodeJS.ProcessEnv);
  const limits = mergeRateLimits(declaredLimits, checked.rateLimits);
  const unknown = serverTools === undefined ? undefined : unknownLimitedTool(serverTools, Object.keys(limits?.tools ?? {}), 'MCPGEN_RATE_LIMIT_TOOLS');
  if (unknown !== undefined) throw new Error(unknown);
  const set = (name: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  const http =
    args.transport === 'http'
      ? {
          host: args.host,
          port: args.port,
          allowedHosts: args.allowedHosts ?? 'localhost names',
          allowedOrigins: args.allowedOrigins ?? 'localhost names',
          healthPath: args.healthPath ?? '/healthz',
          readyPath: args.readyPath ?? '/readyz',
          shutdownDelaySeconds: args.shutdownDelaySeconds ?? 0,
          ...(args.auth?.authorizationServers !== undefined ? { authIssuers: args.auth.authorizationServers } : {}),
          ...(args.auth?.resource !== undefined ? { authResource: args.auth.resource } : {}),
        }
      : {};
  const redis = printableRedis(env);
  const keys = set('MCPGEN_REQUEST_STATE_KEYS');
  return {
    transport: args.transport,
    ...http,
    redis,
    ...(set('MCPGEN_REDIS_CHANNEL') !== undefined ? { redisChannel: set('MCPGEN_REDIS_CHANNEL') } : {}),
    requestStateKeys: keys === undefined ? 'one random key per process' : parseKeyList(keys).map((k) => `${k.id}:***`),
    requestStateTtlSeconds: Number(set('MCPGEN_REQUEST_STATE_TTL_SECONDS') ?? 600),
    ...(set('MCPGEN_SKILLS_DIR') !== undefined ? { skillsDir: set('MCPGEN_SKILLS_DIR') } : {}),
    telemetry: set('MCPGEN_TELEMETRY') ?? 'off',
    accessLog: set('MCPGEN_ACCESS_LOG') ?? 'off',
    logFormat: set('MCPGEN_LOG_FORMAT') ?? 'text',
    logLevel: set('MCPGEN_LOG_LEVEL') ?? 'info',
    // The limits in force: the spec's (main.ts hands them in) under the environment's.
    rateLimits: printableLimits(limits, typeof redis !== 'string'),
  };
}

/** Each limit as a rate (`5/1s`), where it is counted; `none` without limits. */
function printableLimits(limits: RateLimitSettings | undefined, redis: boolean): unknown {
  if (limits === undefined || (limits.server === undefined && Object.keys(limits.tools ?? {}).length === 0)) return 'none';
  const rate = (r: { points: number; durationSeconds: number }) => `${r.points}/${r.durationSeconds}s`;
  return {
    ...(limits.server !== undefined ? { server: rate(limits.server) } : {}),
    ...(limits.tools !== undefined ? { tools: Object.fromEntries(Object.entries(limits.tools).map(([name, r]) => [name, rate(r)])) } : {}),
    countedIn: redis ? 'Redis (shared by every instance)' : 'memory (this process only)',
  };
}

