// The command line of a generated main.ts, parsed here once (and tested once) so every generated entry
// point stays a few lines. Flags win over the environment, the environment over the defaults:
//   --http | --stdio            transport (default stdio)
//   --host <address>            HOST        bind address for --http (default 127.0.0.1)
//   --port <n>                  PORT        port for --http (default 3000; 0 = any free port)
//   --allowed-hosts <list>      MCPGEN_ALLOWED_HOSTS    hostnames accepted in Host, besides the localhost names
//   --allowed-origins <list>    MCPGEN_ALLOWED_ORIGINS  hostnames accepted in Origin, besides the localhost names
//   --toolsets <list>           MCPGEN_TOOLSETS         toolsets to expose (`all`: every one; default: the spec's defaults)
//   --read-only                 MCPGEN_READ_ONLY=1      expose only tools annotated readOnlyHint
import { basename } from 'node:path';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import { didYouMean } from '../../shared/suggest.js';
import type { ServerDefinition } from '../core/definition.js';
import { chosenToolsets, UnknownToolsetError, type ExposureOptions } from '../core/exposure.js';
import type { HttpOptions } from '../transport/http.js';
import type { ListenOptions } from '../transport/node-http.js';

export interface HttpEntryArgs {
  readonly transport: 'http';
  readonly host: string;
  readonly port: number;
  /** Extra hostnames for the Host check (the localhost names stay allowed); `'*'` turns the check off. */
  readonly allowedHosts: readonly string[] | '*' | undefined;
  /** Extra hostnames for the Origin check (the localhost names stay allowed); `'*'` turns the check off. */
  readonly allowedOrigins: readonly string[] | '*' | undefined;
}

/** What the deployment exposes (both transports); absent keys: the spec's defaults. */
export type EntryArgs = ({ readonly transport: 'stdio' } | HttpEntryArgs) & ExposureOptions;

/** What the command line asks for: serve, print the usage, or refuse it (exit 2). */
export type EntryCommand = { readonly kind: 'run'; readonly args: EntryArgs } | { readonly kind: 'help' } | { readonly kind: 'usage-error'; readonly message: string };

const VALUE_FLAGS = ['--host', '--port', '--allowed-hosts', '--allowed-origins', '--toolsets'] as const;
const SWITCHES = ['--http', '--stdio', '--read-only', '--help', '-h'] as const;
const ALL_FLAGS: readonly string[] = [...VALUE_FLAGS, ...SWITCHES];
type ValueFlag = (typeof VALUE_FLAGS)[number];

export function entryUsage(program = 'main.js'): string {
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
    '  -h, --help                print this and exit',
    '',
    'Deployment settings also come from the environment: REDIS_URL, MCPGEN_REDIS_CHANNEL,',
    'MCPGEN_REQUEST_STATE_KEYS, MCPGEN_REQUEST_STATE_TTL_SECONDS.',
  ].join('\n');
}

/** Parse a generated entry point's argv (without node and the script) and environment. Never throws. */
export function parseEntryArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): EntryCommand {
  const values = new Map<ValueFlag, string>();
  let transport: 'http' | 'stdio' | undefined;
  let readOnlyFlag = false;
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
    if (name === '--http' || name === '--stdio') {
      if (eq > 0) return usageError(`${name} takes no value`);
      const chosen = name === '--http' ? 'http' : 'stdio';
      if (transport !== undefined && transport !== chosen) return usageError('--http and --stdio exclude each other');
      transport = chosen;
      continue;
    }
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) {
      const hint = arg.startsWith('-') ? didYouMean(name, ALL_FLAGS) : undefined;
      return usageError(arg.startsWith('-') ? `unknown option ${name}${hint !== undefined ? ` (did you mean ${hint}?)` : ''}` : `unexpected argument ${JSON.stringify(arg)}`);
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) return usageError(`${name} needs a value`);
    values.set(name as ValueFlag, value);
  }
  const exposure = exposureArgs(values.get('--toolsets'), readOnlyFlag, env);
  if ('error' in exposure) return usageError(exposure.error);
  values.delete('--toolsets');
  if (transport !== 'http') {
    // A port or host with stdio would be ignored: say so instead of serving something else than asked.
    const httpOnly = [...values.keys()];
    if (httpOnly.length > 0) return usageError(`${httpOnly.join(', ')} ${httpOnly.length > 1 ? 'apply' : 'applies'} to --http only`);
    return { kind: 'run', args: { transport: 'stdio', ...exposure } };
  }
  const setting = (flag: ValueFlag, envName: string) => {
    const fromFlag = values.get(flag);
    if (fromFlag !== undefined) return { value: fromFlag, source: flag };
    const fromEnv = env[envName];
    return fromEnv !== undefined && fromEnv !== '' ? { value: fromEnv, source: envName } : undefined;
  };
  const port = setting('--port', 'PORT');
  const portNumber = port === undefined ? 3000 : Number(port.value);
  if (port !== undefined && !(/^\d+$/.test(port.value.trim()) && portNumber <= 65535)) return usageError(`${port.source} must be a port number (0-65535), got ${JSON.stringify(port.value)}`);
  // `[::1]` as written in URLs binds as `::1`.
  const host = setting('--host', 'HOST');
  if (host !== undefined && host.value.trim() === '') return usageError(`${host.source} must not be empty`);
  const hosts = hostList(setting('--allowed-hosts', 'MCPGEN_ALLOWED_HOSTS'));
  if (typeof hosts === 'object' && 'error' in hosts) return usageError(hosts.error);
  const origins = hostList(setting('--allowed-origins', 'MCPGEN_ALLOWED_ORIGINS'));
  if (typeof origins === 'object' && 'error' in origins) return usageError(origins.error);
  return { kind: 'run', args: { transport: 'http', host: host === undefined ? '127.0.0.1' : host.value.trim().replace(/^\[(.*)\]$/, '$1'), port: portNumber, allowedHosts: hosts, allowedOrigins: origins, ...exposure } };
}

/**
 * `--toolsets` (else MCPGEN_TOOLSETS) and `--read-only` (else MCPGEN_READ_ONLY): only the keys given, so
 * the server options' own defaults apply otherwise. Names are checked against the spec later (exposureOrExit).
 */
function exposureArgs(flag: string | undefined, readOnlyFlag: boolean, env: Readonly<Record<string, string | undefined>>): ExposureOptions | { error: string } {
  const source = flag !== undefined ? '--toolsets' : 'MCPGEN_TOOLSETS';
  const raw = flag ?? (env.MCPGEN_TOOLSETS || undefined);
  const list = raw?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (list !== undefined && list.length === 0) return { error: `${source} is empty` };
  const envReadOnly = env.MCPGEN_READ_ONLY?.trim().toLowerCase();
  if (envReadOnly !== undefined && envReadOnly !== '' && !['1', 'true', '0', 'false'].includes(envReadOnly)) return { error: `MCPGEN_READ_ONLY must be 1, true, 0 or false, got ${JSON.stringify(env.MCPGEN_READ_ONLY)}` };
  const readOnly = readOnlyFlag || envReadOnly === '1' || envReadOnly === 'true';
  return { ...(list !== undefined ? { toolsets: list } : {}), ...(readOnly ? { readOnly: true } : {}) };
}

/** The exposure part of parsed entry args (what createXServer's options take). */
export function exposureOf(args: EntryArgs): ExposureOptions {
  return { ...(args.toolsets !== undefined ? { toolsets: args.toolsets } : {}), ...(args.readOnly === true ? { readOnly: true } : {}) };
}

/**
 * A comma-separated list of hostnames as the SDK's Host/Origin checks compare them (no scheme, no port,
 * IPv6 in brackets). A URL or host:port is refused here: it would never match and every request would get 403.
 */
function hostList(setting: { value: string; source: string } | undefined): readonly string[] | '*' | undefined | { error: string } {
  if (setting === undefined) return undefined;
  const items = setting.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 1 && items[0] === '*') return '*';
  if (items.length === 0) return { error: `${setting.source} is empty` };
  for (const item of items) {
    if (item === '*') return { error: `${setting.source}: * stands alone (it turns the check off)` };
    if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%]+)$/.test(item)) return { error: `${setting.source}: ${JSON.stringify(item)} is not a hostname (no scheme, no port; IPv6 in brackets)` };
  }
  return items.map((h) => h.toLowerCase());
}

/** Loopback addresses and names: binding one is private to the machine, so the localhost-only Host check fits. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
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
export function entryArgsOrExit(argv: readonly string[] = process.argv.slice(2), env: Readonly<Record<string, string | undefined>> = process.env, program = basename(process.argv[1] ?? 'main.js')): EntryArgs {
  const command = parseEntryArgs(argv, env);
  if (command.kind === 'run') return command.args;
  if (command.kind === 'help') {
    process.stdout.write(`${entryUsage(program)}\n`);
    process.exit(0);
  }
  process.stderr.write(`${program}: ${command.message}\n\n${entryUsage(program)}\n`);
  process.exit(2);
}

/** The listen/HTTP options of parsed HTTP args: extra allowed names join the localhost ones. */
export function httpEntryOptions(args: HttpEntryArgs): ListenOptions & Pick<HttpOptions, 'allowedHosts' | 'allowedOrigins'> {
  const widen = (extra: readonly string[] | '*', localhost: readonly string[]) => (extra === '*' ? ('*' as const) : [...new Set([...localhost, ...extra])]);
  return {
    host: args.host,
    port: args.port,
    ...(args.allowedHosts !== undefined ? { allowedHosts: widen(args.allowedHosts, localhostAllowedHostnames()) } : {}),
    ...(args.allowedOrigins !== undefined ? { allowedOrigins: widen(args.allowedOrigins, localhostAllowedOrigins()) } : {}),
  };
}

/**
 * The exposure options of a generated main.ts, with the toolset names checked against the spec before any
 * server is built: an unknown name prints the message and exits 2, like any other usage error.
 */
export function exposureOrExit(args: EntryArgs, definition: ServerDefinition, program = basename(process.argv[1] ?? 'main.js')): ExposureOptions {
  const exposure = exposureOf(args);
  try {
    chosenToolsets(definition.toolsets ?? {}, exposure.toolsets);
  } catch (e) {
    if (!(e instanceof UnknownToolsetError)) throw e;
    process.stderr.write(`${program}: ${e.message}\n`);
    process.exit(2);
  }
  return exposure;
}
