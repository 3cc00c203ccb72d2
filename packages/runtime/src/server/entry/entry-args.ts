// The command line of a generated main.ts, parsed here once (and tested once) so every generated entry
// point stays a few lines. Flags win over the environment, the environment over the defaults:
//   --http | --stdio            transport (default stdio)
//   --host <address>            HOST        bind address for --http (default 127.0.0.1)
//   --port <n>                  PORT        port for --http (default 3000; 0 = any free port)
//   --allowed-hosts <list>      MCPGEN_ALLOWED_HOSTS    hostnames accepted in Host, besides the localhost names
//   --allowed-origins <list>    MCPGEN_ALLOWED_ORIGINS  hostnames accepted in Origin, besides the localhost names
//   --health-path, --ready-path MCPGEN_HEALTH_PATH, MCPGEN_READY_PATH  the probes (default /healthz, /readyz)
//   --shutdown-delay <s>        MCPGEN_SHUTDOWN_DELAY_SECONDS  not ready but serving after SIGTERM (default 0)
//   --auth-issuers <list>       MCPGEN_AUTH_ISSUERS     replaces the spec's authorization servers (auth: only)
//   --auth-resource <url>       MCPGEN_AUTH_RESOURCE    the resource identifier tokens must name (auth: only)
//   --toolsets <list>           MCPGEN_TOOLSETS         toolsets to expose (`all`: every one; default: the spec's defaults)
//   --read-only                 MCPGEN_READ_ONLY=1      expose only tools annotated readOnlyHint
// Usage errors (an unknown flag, a missing value) print the usage and exit 2; a wrong value is one line, exit 1.
import { logFormat, logText } from '../core/log.js';
import { basename } from 'node:path';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import { didYouMean } from '../../shared/suggest.js';
import type { AuthOptions } from '../auth/verifier.js';
import type { ExposureOptions } from '../core/exposure.js';
import { exposureArgs } from './exposure-args.js';
import type { HttpOptions } from '../transport/http.js';
import type { ListenOptions } from '../transport/node-http.js';
import { isLoopbackHost } from './loopback.js';
import { hostList, isError, issuerList, type HostList, originList, probePath, resourceUrl, seconds, type Setting } from './settings.js';
import { printableConfig } from './print-config.js';
import { taskRoleArg, type TaskRoleArg } from './role-args.js';
import { entryFeatures, entryUsage, type EntryFeatures } from './usage.js';
import { configFileSettings, withFileDefaults } from './config-file.js';
import { checkUpstream, printableUpstream, upstreamVariables } from './upstream-settings.js';

export { entryUsage, type EntryFeatures };

export { isLoopbackHost };


export interface HttpEntryArgs {
  readonly transport: 'http';
  readonly host: string;
  readonly port: number;
  /** Extra hostnames for the Host check (the localhost names stay allowed); `'*'` turns the check off. */
  readonly allowedHosts: readonly string[] | '*' | undefined;
  /** Extra hostnames for the Origin check (the localhost names stay allowed); `'*'` turns the check off. */
  readonly allowedOrigins: readonly string[] | '*' | undefined;
  /** Browser origins (`https://app.example`) served cross-origin: preflights answered, headers exposed. */
  readonly corsOrigins?: readonly string[] | undefined;
  /** Probe paths: absent = the defaults, false = off. */
  readonly healthPath?: string | false;
  readonly readyPath?: string | false;
  /** Seconds between SIGTERM (readiness 503) and closing. Default 0. */
  readonly shutdownDelaySeconds?: number;
  /** Per-environment authorization settings (only for a spec with `auth:`). */
  readonly auth?: Pick<AuthOptions, 'authorizationServers' | 'resource'>;
  /** A task front (queues handlers) or a worker (runs queued tasks, serves only the probes); absent: both. */
  readonly taskRole?: TaskRoleArg;
}

/** What the deployment exposes (both transports); absent keys: the spec's defaults. */
export type EntryArgs = ({ readonly transport: 'stdio' } | HttpEntryArgs) & ExposureOptions;

/** What the command line asks for: serve, print the usage, refuse it (exit 2) or refuse a value (exit 1). */
export type EntryCommand =
  | { readonly kind: 'run'; readonly args: EntryArgs }
  | { readonly kind: 'help' }
  | { readonly kind: 'print-config'; readonly args: EntryArgs }
  | { readonly kind: 'usage-error'; readonly message: string }
  | { readonly kind: 'config-error'; readonly message: string };

const VALUE_FLAGS = ['--host', '--port', '--allowed-hosts', '--allowed-origins', '--health-path', '--ready-path', '--shutdown-delay', '--auth-issuers', '--auth-resource', '--toolsets', '--cors-origins'] as const;
const AUTH_FLAGS: readonly string[] = ['--auth-issuers', '--auth-resource'];
const SWITCHES = ['--http', '--stdio', '--read-only', '--worker', '--front', '--print-config', '--help', '-h'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

function valueFlags(features: EntryFeatures): readonly string[] {
  return VALUE_FLAGS.filter((f) => features.auth === true || !AUTH_FLAGS.includes(f));
}

/** Parse a generated entry point's argv (without node and the script) and environment. Never throws. */
export function parseEntryArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}, features: EntryFeatures = {}): EntryCommand {
  const known = valueFlags(features);
  const printConfig = argv.includes('--print-config');
  if (printConfig) argv = argv.filter((a) => a !== '--print-config');
  const command = parseServeArgs(argv, env, features, known);
  return printConfig && command.kind === 'run' ? { kind: 'print-config', args: command.args } : command;
}

function parseServeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, features: EntryFeatures, known: readonly string[]): EntryCommand {
  const values = new Map<ValueFlag, string>();
  let transport: 'http' | 'stdio' | undefined;
  let readOnlyFlag = false;
  const roleFlags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--read-only') {
      if (eq > 0) return usageError('--read-only takes no value');
      readOnlyFlag = true;
      continue;
    }
    if (name === '--worker' || name === '--front') {
      if (eq > 0) return usageError(`${name} takes no value`);
      roleFlags.push(name);
      continue;
    }
    if (name === '--http' || name === '--stdio') {
      if (eq > 0) return usageError(`${name} takes no value`);
      const chosen = name === '--http' ? 'http' : 'stdio';
      if (transport !== undefined && transport !== chosen) return usageError('--http and --stdio exclude each other');
      transport = chosen;
      continue;
    }
    if (!known.includes(name)) {
      const hint = arg.startsWith('-') ? didYouMean(name, [...known, ...SWITCHES]) : undefined;
      return usageError(arg.startsWith('-') ? `unknown option ${name}${hint !== undefined ? ` (did you mean ${hint}?)` : ''}` : `unexpected argument ${JSON.stringify(arg)}`);
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) return usageError(`${name} needs a value`);
    values.set(name as ValueFlag, value);
  }
  const exposure = exposureArgs(values.get('--toolsets'), readOnlyFlag, env);
  // A wrong value, not a wrong command line: one line and exit 1, like the other settings.
  if ('error' in exposure) return { kind: 'config-error', message: exposure.error };
  values.delete('--toolsets');
  const role = taskRoleArg(roleFlags, env, transport);
  if ('error' in role) return usageError(role.error);
  if (role.taskRole === 'worker') transport = 'http'; // a worker listens for the probes only
  if (transport !== 'http') {
    // A port or host with stdio would be ignored: say so instead of serving something else than asked.
    const httpOnly = [...values.keys()];
    if (httpOnly.length > 0) return usageError(`${httpOnly.join(', ')} ${httpOnly.length > 1 ? 'apply' : 'applies'} to --http only`);
    return { kind: 'run', args: { transport: 'stdio', ...exposure } };
  }
  const setting = (flag: ValueFlag, envName: string): Setting | undefined => {
    const fromFlag = values.get(flag);
    if (fromFlag !== undefined) return { value: fromFlag, source: flag };
    const fromEnv = env[envName];
    return fromEnv !== undefined && fromEnv !== '' ? { value: fromEnv, source: envName } : undefined;
  };
  try {
    return { kind: 'run', args: { ...httpArgs(setting, features), ...exposure, ...role } };
  } catch (e) {
    if (e instanceof ValueError) return { kind: 'config-error', message: e.message };
    throw e;
  }
}

class ValueError extends Error {}

function checked<T>(value: T | { readonly error: string }): T {
  if (isError<T>(value)) throw new ValueError(value.error);
  return value;
}

/** The HTTP settings, each from its flag or variable; a wrong one throws ValueError with its one line. */
function httpArgs(setting: (flag: ValueFlag, envName: string) => Setting | undefined, features: EntryFeatures): HttpEntryArgs {
  const port = setting('--port', 'PORT');
  const portNumber = port === undefined ? 3000 : Number(port.value);
  if (port !== undefined && !(/^\d+$/.test(port.value.trim()) && portNumber <= 65535)) throw new ValueError(`${port.source} must be a port number (0-65535), got ${JSON.stringify(port.value)}`);
  // `[::1]` as written in URLs binds as `::1`.
  const host = setting('--host', 'HOST');
  if (host !== undefined && host.value.trim() === '') throw new ValueError(`${host.source} must not be empty`);
  const hosts = checked<HostList>(hostList(setting('--allowed-hosts', 'MCPGEN_ALLOWED_HOSTS')));
  const origins = checked<HostList>(hostList(setting('--allowed-origins', 'MCPGEN_ALLOWED_ORIGINS')));
  const optional = <T>(s: Setting | undefined, read: (s: Setting) => T | { readonly error: string }): T | undefined => (s === undefined ? undefined : checked(read(s)));
  const healthPath = optional(setting('--health-path', 'MCPGEN_HEALTH_PATH'), (s) => probePath(s, '/mcp'));
  const readyPath = optional(setting('--ready-path', 'MCPGEN_READY_PATH'), (s) => probePath(s, '/mcp'));
  if (healthPath !== undefined && healthPath !== false && healthPath === readyPath) throw new ValueError(`the health and readiness probes need two paths, both are ${healthPath}`);
  const shutdownDelay = optional(setting('--shutdown-delay', 'MCPGEN_SHUTDOWN_DELAY_SECONDS'), (s) => seconds(s, 600));
  const issuers = features.auth === true ? optional(setting('--auth-issuers', 'MCPGEN_AUTH_ISSUERS'), issuerList) : undefined;
  const resource = features.auth === true ? optional(setting('--auth-resource', 'MCPGEN_AUTH_RESOURCE'), resourceUrl) : undefined;
  const cors = optional(setting('--cors-origins', 'MCPGEN_CORS_ORIGINS'), originList);
  const auth = { ...(issuers !== undefined ? { authorizationServers: issuers } : {}), ...(resource !== undefined ? { resource } : {}) };
  return {
    transport: 'http',
    host: host === undefined ? '127.0.0.1' : host.value.trim().replace(/^\[(.*)\]$/, '$1'),
    port: portNumber,
    allowedHosts: hosts,
    allowedOrigins: origins,
    ...(healthPath !== undefined ? { healthPath } : {}),
    ...(readyPath !== undefined ? { readyPath } : {}),
    ...(shutdownDelay !== undefined ? { shutdownDelaySeconds: shutdownDelay } : {}),
    ...(Object.keys(auth).length > 0 ? { auth } : {}),
    ...(cors !== undefined ? { corsOrigins: cors } : {}),
  };
}




/**
 * The warning for an HTTP server reachable from other machines that still accepts only localhost names in
 * Host: every request naming it by its hostname or address gets 403 Invalid Host.
 */
export function exposureWarning(args: HttpEntryArgs): string | undefined {
  if (isLoopbackHost(args.host) || args.allowedHosts !== undefined) return undefined;
  return (
    `warning: listening on ${args.host}, but only localhost names are accepted in the Host header: requests that ` +
    `name this server by its hostname or address get 403. List them with --allowed-hosts (MCPGEN_ALLOWED_HOSTS).`
  );
}

function usageError(message: string): EntryCommand {
  return { kind: 'usage-error', message };
}

export function isEntryArgs(value: readonly string[] | EntryArgs): value is EntryArgs {
  return !Array.isArray(value);
}

/**
 * The command line of a generated main.ts, read before anything is built: `--help` prints the usage and
 * exits 0, a usage error prints it on stderr and exits 2 (no server, no Redis connection is made for either).
 */
export function entryArgsOrExit(features?: EntryFeatures): EntryArgs;
export function entryArgsOrExit(argv: readonly string[], env?: Readonly<Record<string, string | undefined>>, program?: string, features?: EntryFeatures): EntryArgs;
export function entryArgsOrExit(
  argvOrFeatures: readonly string[] | EntryFeatures = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
  program = basename(process.argv[1] ?? 'main.js'),
  features: EntryFeatures = {},
): EntryArgs {
  // `entryArgsOrExit({ auth: true })` (generated main.ts): this process's argv with the server's features.
  const argv = Array.isArray(argvOrFeatures) ? argvOrFeatures : process.argv.slice(2);
  const has = entryFeatures(Array.isArray(argvOrFeatures) ? features : (argvOrFeatures as EntryFeatures));
  // A --config file (or MCPGEN_CONFIG) fills in the variables not set: serverOptionsFromEnv reads them later.
  const file = configFileSettings(argv, env, has.upstream === undefined ? [] : upstreamVariables(has.upstream).map((v) => v.name));
  if ('error' in file) {
    logText('error', file.error, `${program}: `);
    process.exit(1);
  }
  if (file.settings !== undefined) withFileDefaults(env as Record<string, string | undefined>, file.settings);
  const command = parseEntryArgs(file.argv, env, has);
  // The upstream API's settings, checked where the other settings are: before serving or printing them.
  if ((command.kind === 'run' || command.kind === 'print-config') && has.upstream !== undefined) {
    try {
      checkUpstream(has.upstream, env);
    } catch (e) {
      logText('error', (e as Error).message, `${program}: `);
      process.exit(1);
    }
  }
  if (command.kind === 'run') return command.args;
  if (command.kind === 'help') {
    process.stdout.write(`${entryUsage(program, has)}\n`);
    process.exit(0);
  }
  if (command.kind === 'print-config') {
    try {
      const upstream = has.upstream === undefined ? {} : { upstream: printableUpstream(has.upstream, env) };
      process.stdout.write(`${JSON.stringify({ ...printableConfig(command.args, env, has.rateLimits, has.definition?.tools.map((t) => t.definition.name)), ...upstream }, null, 2)}\n`);
    } catch (e) {
      logText('error', e instanceof Error ? e.message : String(e), `${program}: `);
      process.exit(1);
    }
    process.exit(0);
  }
  if (command.kind === 'config-error') {
    logText('error', command.message, `${program}: `);
    process.exit(1);
  }
  logText('error', command.message, `${program}: `);
  if (logFormat() === 'text') process.stderr.write(`\n${entryUsage(program, has)}\n`);
  process.exit(2);
}

/** The listen/HTTP options of parsed HTTP args: extra allowed names join the localhost ones. */
export function httpEntryOptions(args: HttpEntryArgs): ListenOptions & Pick<HttpOptions, 'allowedHosts' | 'allowedOrigins' | 'auth' | 'corsOrigins'> {
  const widen = (extra: readonly string[] | '*', localhost: readonly string[]) => (extra === '*' ? ('*' as const) : [...new Set([...localhost, ...extra])]);
  return {
    host: args.host,
    port: args.port,
    ...(args.allowedHosts !== undefined ? { allowedHosts: widen(args.allowedHosts, localhostAllowedHostnames()) } : {}),
    ...(args.allowedOrigins !== undefined ? { allowedOrigins: widen(args.allowedOrigins, localhostAllowedOrigins()) } : {}),
    ...(args.corsOrigins !== undefined ? { corsOrigins: args.corsOrigins } : {}),
    ...(args.healthPath !== undefined ? { healthPath: args.healthPath } : {}),
    ...(args.readyPath !== undefined ? { readyPath: args.readyPath } : {}),
    ...(args.auth !== undefined ? { auth: args.auth } : {}),
  };
}
