// The Redis an instance shares with the others, from its environment (or config file), checked at start:
//   REDIS_URL                          a standalone Redis: redis://[user:password@]host:port[/db], rediss://… for TLS
//   MCPGEN_REDIS_SENTINELS             Sentinel: the sentinels, host:port,host:port,… (with MCPGEN_REDIS_MASTER_NAME)
//   MCPGEN_REDIS_MASTER_NAME           the master's name in the sentinels' configuration
//   MCPGEN_REDIS_CLUSTER               Redis Cluster: seed nodes, host:port,host:port,…
//   MCPGEN_REDIS_USERNAME / _PASSWORD  the data nodes' credentials (a standalone URL may carry them instead)
//   MCPGEN_REDIS_SENTINEL_USERNAME / _PASSWORD   the sentinels' own, when they differ
//   MCPGEN_REDIS_TLS                   on: TLS to Sentinel or Cluster nodes (a standalone Redis: rediss://)
//   MCPGEN_REDIS_TLS_CA / _CERT / _KEY PEM files: a private CA; a client certificate and its key
// One of the three topologies at most; anything wrong is one line naming the variable (never a password).
import { readFileSync } from 'node:fs';
import { maskUrl } from './settings.js';
import { describeRedis, type RedisNode, type RedisSettings, type RedisTls } from '../scale/redis-settings.js';

type Env = Readonly<Record<string, string | undefined>>;

export const REDIS_VARIABLES = [
  'REDIS_URL', 'MCPGEN_REDIS_SENTINELS', 'MCPGEN_REDIS_MASTER_NAME', 'MCPGEN_REDIS_CLUSTER', 'MCPGEN_REDIS_USERNAME', 'MCPGEN_REDIS_PASSWORD',
  'MCPGEN_REDIS_SENTINEL_USERNAME', 'MCPGEN_REDIS_SENTINEL_PASSWORD', 'MCPGEN_REDIS_TLS', 'MCPGEN_REDIS_TLS_CA', 'MCPGEN_REDIS_TLS_CERT', 'MCPGEN_REDIS_TLS_KEY',
] as const;

/** The configured Redis, undefined when none is; throws the one-line error. `readFile`: how the TLS files are read. */
export function redisFromEnv(env: Env, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): RedisSettings | undefined {
  const get = (name: (typeof REDIS_VARIABLES)[number]) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  const chosen = (['REDIS_URL', 'MCPGEN_REDIS_SENTINELS', 'MCPGEN_REDIS_CLUSTER'] as const).filter((n) => get(n) !== undefined);
  if (chosen.length > 1) throw new Error(`set one of REDIS_URL, MCPGEN_REDIS_SENTINELS and MCPGEN_REDIS_CLUSTER, not ${chosen.join(' and ')}`);
  if (get('MCPGEN_REDIS_MASTER_NAME') !== undefined && chosen[0] !== 'MCPGEN_REDIS_SENTINELS') throw new Error('MCPGEN_REDIS_MASTER_NAME needs MCPGEN_REDIS_SENTINELS');
  if (chosen.length === 0) {
    const stray = REDIS_VARIABLES.find((n) => get(n) !== undefined);
    if (stray !== undefined) throw new Error(`${stray} needs REDIS_URL, MCPGEN_REDIS_SENTINELS or MCPGEN_REDIS_CLUSTER`);
    return undefined;
  }
  const credentials = { ...optional('username', get('MCPGEN_REDIS_USERNAME')), ...optional('password', get('MCPGEN_REDIS_PASSWORD')) };
  const tlsWanted = onOff(get('MCPGEN_REDIS_TLS'));
  const files = tlsFiles(get, readFile);
  if (chosen[0] === 'REDIS_URL') {
    const url = checkRedisUrl(get('REDIS_URL')!);
    if (tlsWanted !== undefined) throw new Error('MCPGEN_REDIS_TLS is for Sentinel and Cluster: a standalone Redis takes TLS from a rediss:// REDIS_URL');
    if (files !== undefined && url.protocol !== 'rediss:') throw new Error('MCPGEN_REDIS_TLS_CA, _CERT and _KEY need a rediss:// REDIS_URL');
    if ((url.username !== '' || url.password !== '') && Object.keys(credentials).length > 0) throw new Error('REDIS_URL carries credentials: MCPGEN_REDIS_USERNAME and MCPGEN_REDIS_PASSWORD would override them; set one or the other');
    return { topology: 'standalone', url: get('REDIS_URL')!, ...credentials, ...(files !== undefined ? { tls: files } : {}) };
  }
  if (files !== undefined && tlsWanted !== true) throw new Error('MCPGEN_REDIS_TLS_CA, _CERT and _KEY need MCPGEN_REDIS_TLS=on');
  const tls = tlsWanted === true ? { tls: files ?? (true as const) } : {};
  if (chosen[0] === 'MCPGEN_REDIS_CLUSTER') {
    if (get('MCPGEN_REDIS_SENTINEL_USERNAME') !== undefined || get('MCPGEN_REDIS_SENTINEL_PASSWORD') !== undefined) throw new Error('MCPGEN_REDIS_SENTINEL_USERNAME and _PASSWORD need MCPGEN_REDIS_SENTINELS');
    return { topology: 'cluster', nodes: nodeList('MCPGEN_REDIS_CLUSTER', get('MCPGEN_REDIS_CLUSTER')!), ...credentials, ...tls };
  }
  const masterName = get('MCPGEN_REDIS_MASTER_NAME');
  if (masterName === undefined) throw new Error('MCPGEN_REDIS_SENTINELS needs MCPGEN_REDIS_MASTER_NAME (the name in `sentinel monitor <name> …`)');
  return {
    topology: 'sentinel',
    sentinels: nodeList('MCPGEN_REDIS_SENTINELS', get('MCPGEN_REDIS_SENTINELS')!),
    masterName,
    ...credentials,
    ...optional('sentinelUsername', get('MCPGEN_REDIS_SENTINEL_USERNAME')),
    ...optional('sentinelPassword', get('MCPGEN_REDIS_SENTINEL_PASSWORD')),
    ...tls,
  };
}

/** For --print-config: where Redis is, passwords masked, TLS files by name. */
export function printableRedis(env: Env): unknown {
  const settings = redisFromEnv(env);
  if (settings === undefined) return 'none (this process only)';
  const masked = (name: string) => (env[name] ? '***' : undefined);
  const url = settings.topology === 'standalone' ? maskUrl(settings.url) : undefined;
  const out = { topology: settings.topology, where: url ?? describeRedis(settings), username: masked('MCPGEN_REDIS_USERNAME'), password: masked('MCPGEN_REDIS_PASSWORD'), sentinelUsername: masked('MCPGEN_REDIS_SENTINEL_USERNAME'), sentinelPassword: masked('MCPGEN_REDIS_SENTINEL_PASSWORD'), tls: settings.tls === undefined && !url?.startsWith('rediss:') ? 'off' : 'on', tlsCa: env.MCPGEN_REDIS_TLS_CA || undefined, tlsCert: env.MCPGEN_REDIS_TLS_CERT || undefined, tlsKey: env.MCPGEN_REDIS_TLS_KEY || undefined };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'true' || value === '1') return true;
  if (value === 'off' || value === 'false' || value === '0') return false;
  throw new Error(`MCPGEN_REDIS_TLS must be on or off, got ${JSON.stringify(value)}`);
}

function tlsFiles(get: (name: (typeof REDIS_VARIABLES)[number]) => string | undefined, readFile: (path: string) => string): RedisTls | undefined {
  const read = (name: 'MCPGEN_REDIS_TLS_CA' | 'MCPGEN_REDIS_TLS_CERT' | 'MCPGEN_REDIS_TLS_KEY') => {
    const path = get(name);
    if (path === undefined) return undefined;
    try {
      return readFile(path);
    } catch (e) {
      throw new Error(`${name}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  };
  const [ca, cert, key] = [read('MCPGEN_REDIS_TLS_CA'), read('MCPGEN_REDIS_TLS_CERT'), read('MCPGEN_REDIS_TLS_KEY')];
  if ((cert === undefined) !== (key === undefined)) throw new Error('MCPGEN_REDIS_TLS_CERT and MCPGEN_REDIS_TLS_KEY go together (a client certificate and its key)');
  if (ca === undefined && cert === undefined) return undefined;
  return { ...optional('ca', ca), ...optional('cert', cert), ...optional('key', key) };
}

function nodeList(name: string, value: string): RedisNode[] {
  return value.split(',').map((entry) => {
    const m = /^\s*([^\s:]+|\[[0-9a-fA-F:]+\]):([0-9]{1,5})\s*$/.exec(entry);
    const port = m === null ? Number.NaN : Number(m[2]);
    if (m === null || !(port >= 1 && port <= 65535)) throw new Error(`${name} must be host:port,host:port,… (got ${JSON.stringify(entry)})`);
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

/** redis:// or rediss:// with a host; the message never repeats the URL (it may hold a password). */
function checkRedisUrl(value: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL with a host (e.g. redis://127.0.0.1:6379)');
  }
  return url;
}

