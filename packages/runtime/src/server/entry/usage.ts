// `main.js --help`: the usage of a generated entry point, naming every flag and every variable it reads
// (config-file.ts accepts the same variable names in a --config file).
import type { RateLimitSettings } from '../ops/rate-limit.js';
import type { ServerDefinition } from '../core/definition.js';
import { upstreamVariables, type UpstreamSettings } from './upstream-settings.js';

/** What the generated server has, so flags for what it lacks are unknown and --help lists only what applies. */
export interface EntryFeatures {
  /** The spec declares `auth:` (the auth flags exist). */
  readonly auth?: boolean;
  /** The spec's declared rate limits (`--print-config` shows them under the environment's). */
  readonly rateLimits?: Omit<RateLimitSettings, 'redisUrl'> | undefined;
  /**
   * The server's definition (the generated main.ts passes it): auth and the declared rate limits come from
   * it, and --print-config checks the settings against its tools as serving does.
   */
  readonly definition?: Pick<ServerDefinition, 'auth' | 'rateLimits' | 'tools'>;
  /** The upstream API of a server with `http:` bindings: its variables are settings too (upstream-settings.ts). */
  readonly upstream?: UpstreamSettings;
}

/** The features as the entry point uses them: what `definition` says, unless given on their own. */
export function entryFeatures(features: EntryFeatures): EntryFeatures {
  const d = features.definition;
  if (d === undefined) return features;
  return { ...features, auth: features.auth ?? d.auth !== undefined, rateLimits: features.rateLimits ?? d.rateLimits };
}

export function entryUsage(program = 'main.js', features: EntryFeatures = {}): string {
  return [
    `Usage: node ${program} [--stdio | --http] [options]`,
    '',
    'Serves this MCP server over stdio (default) or Streamable HTTP.',
    '',
    'Options (flags win over the environment variable in parentheses):',
    '  --stdio                   newline-delimited JSON-RPC on stdin/stdout (default)',
    '  --http                    Streamable HTTP; the endpoint is /mcp',
    '  --host <address>          address to bind (HOST; default 127.0.0.1, loopback only)',
    '  --port <n>                port to listen on (PORT; default 3000, 0 picks a free one)',
    '  --allowed-hosts <list>    comma-separated hostnames accepted in the Host header besides',
    '                            localhost, 127.0.0.1 and [::1] (MCPGEN_ALLOWED_HOSTS); * turns',
    '                            the check off. Needed to serve a non-loopback --host by its name.',
    '  --allowed-origins <list>  comma-separated hostnames accepted in the Origin header of browser',
    '                            requests besides the localhost names (MCPGEN_ALLOWED_ORIGINS);',
    '                            * turns the check off',
    '  --toolsets <list>         comma-separated toolsets to expose (MCPGEN_TOOLSETS); `all` exposes',
    '                            every toolset; default: the toolsets the spec marks default',
    '  --read-only               expose only tools annotated readOnlyHint (MCPGEN_READ_ONLY=1)',
    '  --worker                  run queued tasks only: no MCP endpoint, the probes on --port',
    '                            (MCPGEN_TASK_ROLE=worker; needs Redis; MCPGEN_WORKER_CONCURRENCY',
    '                            handlers at once, default 16)',
    '  --front                   create, read, answer and cancel tasks but queue their handlers for',
    '                            --worker instances (MCPGEN_TASK_ROLE=front; needs Redis)',
    '  --health-path <path>      liveness probe, 200 while serving (MCPGEN_HEALTH_PATH; default',
    '                            /healthz; off turns it off). Outside the Host check and the token gate.',
    '  --ready-path <path>       readiness probe, 503 while draining, while Redis does not answer',
    '                            (a PING every second, 1 s deadline: 503 within 2 s of a freeze)',
    '                            or before the authorization server was discovered',
    '                            (MCPGEN_READY_PATH; default /readyz; off turns it off)',
    '  --shutdown-delay <s>      after SIGTERM, answer the readiness probe 503 but keep serving for',
    '                            this many seconds before draining (MCPGEN_SHUTDOWN_DELAY_SECONDS; default 0)',
    '  --cors-origins <list>     comma-separated browser origins (https://app.example) allowed to call',
    '                            this server cross-origin, CORS (MCPGEN_CORS_ORIGINS; default none)',
    ...(features.auth === true
      ? [
          '  --auth-issuers <list>     comma-separated issuer URLs of the authorization servers whose',
          '                            tokens are accepted, replacing the spec\'s (MCPGEN_AUTH_ISSUERS)',
          '  --auth-resource <url>     this server\'s resource identifier, the audience tokens must name',
          '                            (MCPGEN_AUTH_RESOURCE; default: the spec\'s, else the URL requested)',
        ]
      : []),
    '  --config <file>           settings from a JSON object keyed by the variable names here',
    '                            (MCPGEN_CONFIG); the environment and the flags win over it',
    '  --print-config            print the settings this command line and environment give, with',
    '                            where secrets are masked, as JSON, and exit (0, or 1 on a wrong value)',
    '  -h, --help                print this and exit',
    '',
    'Redis, shared by every instance (one of three topologies): REDIS_URL (standalone,',
    'redis://[user:password@]host:port[/db], rediss:// for TLS); MCPGEN_REDIS_SENTINELS',
    '(host:port,…) with MCPGEN_REDIS_MASTER_NAME (Sentinel); MCPGEN_REDIS_CLUSTER (seed nodes,',
    'host:port,…). Credentials: MCPGEN_REDIS_USERNAME, MCPGEN_REDIS_PASSWORD, and the sentinels\' own',
    'MCPGEN_REDIS_SENTINEL_USERNAME, MCPGEN_REDIS_SENTINEL_PASSWORD. TLS: MCPGEN_REDIS_TLS=on (Sentinel,',
    'Cluster), MCPGEN_REDIS_TLS_CA, MCPGEN_REDIS_TLS_CERT, MCPGEN_REDIS_TLS_KEY (PEM files).',
    'Deployment settings also come from the environment: MCPGEN_REDIS_CHANNEL,',
    'MCPGEN_REQUEST_STATE_KEYS, MCPGEN_REQUEST_STATE_TTL_SECONDS, MCPGEN_TASK_LEASE_MS,',
    'MCPGEN_TASK_RESULT_RETRY_MS, MCPGEN_SKILLS_DIR,',
    'MCPGEN_TELEMETRY (otel: OpenTelemetry spans and metrics; default off), MCPGEN_ACCESS_LOG',
    '(json: one JSON line per request on stderr; default off), MCPGEN_LOG_FORMAT (json: the',
    "runtime's stderr lines as JSON objects; default text), MCPGEN_LOG_LEVEL (debug, info, warn,",
    'error; default info),',
    'MCPGEN_RATE_LIMIT (requests per caller, e.g. 100/1m) and MCPGEN_RATE_LIMIT_TOOLS (add=5/1s,…).',
    ...upstreamUsage(features.upstream),
    'A wrong value is one line on stderr and exit 1; a wrong flag prints this and exits 2.',
  ].join('\n');
}

/** The upstream API's variables, one a line. */
function upstreamUsage(upstream: UpstreamSettings | undefined): string[] {
  if (upstream === undefined) return [];
  return ['', 'The upstream API (the bound tools call it):', ...upstreamVariables(upstream).map((v) => `  ${v.name.padEnd(28)}${v.what}`), ''];
}
