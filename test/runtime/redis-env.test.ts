// The Redis settings of an entry point (entry/redis-env.ts): the three topologies, their credentials and TLS
// files, each wrong combination refused at start with one line naming the variable and never a password.
import { describe, expect, it } from 'vitest';
import { printableRedis, redisFromEnv } from '../../packages/runtime/src/server/entry/redis-env.js';

const files: Record<string, string> = { '/pki/ca.pem': 'CA PEM', '/pki/client.pem': 'CERT PEM', '/pki/client.key': 'KEY PEM' };
const readFile = (path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return text;
};
const parse = (env: Record<string, string>) => redisFromEnv(env, readFile);

describe('Redis settings from the environment', () => {
  it('reads each topology', () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ REDIS_URL: 'rediss://:pw@cache.internal:6380', MCPGEN_REDIS_TLS_CA: '/pki/ca.pem' })).toEqual({ topology: 'standalone', url: 'rediss://:pw@cache.internal:6380', tls: { ca: 'CA PEM' } });
    expect(parse({ MCPGEN_REDIS_SENTINELS: '10.0.0.1:26379, 10.0.0.2:26380', MCPGEN_REDIS_MASTER_NAME: 'mymaster', MCPGEN_REDIS_PASSWORD: 'p', MCPGEN_REDIS_SENTINEL_PASSWORD: 's' })).toEqual({
      topology: 'sentinel',
      sentinels: [{ host: '10.0.0.1', port: 26379 }, { host: '10.0.0.2', port: 26380 }],
      masterName: 'mymaster',
      password: 'p',
      sentinelPassword: 's',
    });
    expect(parse({ MCPGEN_REDIS_CLUSTER: 'a.internal:7000,[::1]:7001', MCPGEN_REDIS_TLS: 'on', MCPGEN_REDIS_TLS_CERT: '/pki/client.pem', MCPGEN_REDIS_TLS_KEY: '/pki/client.key' })).toEqual({
      topology: 'cluster',
      nodes: [{ host: 'a.internal', port: 7000 }, { host: '::1', port: 7001 }],
      tls: { cert: 'CERT PEM', key: 'KEY PEM' },
    });
    expect(parse({ MCPGEN_REDIS_CLUSTER: 'a:7000', MCPGEN_REDIS_TLS: 'on' })).toMatchObject({ tls: true });
  });

  it('refuses what cannot work, in one line naming the variable and no password', () => {
    const cases: [Record<string, string>, string][] = [
      [{ REDIS_URL: 'redis://x:6379', MCPGEN_REDIS_SENTINELS: 'a:1' }, 'set one of REDIS_URL, MCPGEN_REDIS_SENTINELS and MCPGEN_REDIS_CLUSTER, not REDIS_URL and MCPGEN_REDIS_SENTINELS'],
      [{ MCPGEN_REDIS_SENTINELS: 'a:26379' }, 'MCPGEN_REDIS_SENTINELS needs MCPGEN_REDIS_MASTER_NAME'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:7000', MCPGEN_REDIS_MASTER_NAME: 'm' }, 'MCPGEN_REDIS_MASTER_NAME needs MCPGEN_REDIS_SENTINELS'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:70000' }, 'MCPGEN_REDIS_CLUSTER must be host:port'],
      [{ MCPGEN_REDIS_CLUSTER: 'redis://a:7000' }, 'MCPGEN_REDIS_CLUSTER must be host:port'],
      [{ MCPGEN_REDIS_PASSWORD: 'secret-pw' }, 'MCPGEN_REDIS_PASSWORD needs REDIS_URL, MCPGEN_REDIS_SENTINELS or MCPGEN_REDIS_CLUSTER'],
      [{ REDIS_URL: 'http://x' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
      [{ REDIS_URL: 'redis://:secret-pw@x:1', MCPGEN_REDIS_PASSWORD: 'other' }, 'REDIS_URL carries credentials'],
      [{ REDIS_URL: 'redis://x:1', MCPGEN_REDIS_TLS_CA: '/pki/ca.pem' }, 'need a rediss:// REDIS_URL'],
      [{ REDIS_URL: 'redis://x:1', MCPGEN_REDIS_TLS: 'on' }, 'a standalone Redis takes TLS from a rediss:// REDIS_URL'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:1', MCPGEN_REDIS_TLS_CA: '/pki/ca.pem' }, 'need MCPGEN_REDIS_TLS=on'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:1', MCPGEN_REDIS_TLS: 'yes please' }, 'MCPGEN_REDIS_TLS must be on or off'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:1', MCPGEN_REDIS_TLS: 'on', MCPGEN_REDIS_TLS_CA: '/pki/missing.pem' }, 'MCPGEN_REDIS_TLS_CA: cannot read /pki/missing.pem (ENOENT)'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:1', MCPGEN_REDIS_TLS: 'on', MCPGEN_REDIS_TLS_CERT: '/pki/client.pem' }, 'MCPGEN_REDIS_TLS_CERT and MCPGEN_REDIS_TLS_KEY go together'],
      [{ MCPGEN_REDIS_CLUSTER: 'a:1', MCPGEN_REDIS_SENTINEL_PASSWORD: 'secret-pw' }, 'need MCPGEN_REDIS_SENTINELS'],
    ];
    for (const [env, message] of cases) {
      let thrown: unknown;
      try {
        parse(env);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(env)).toBeInstanceOf(Error);
      expect((thrown as Error).message).toContain(message);
      expect((thrown as Error).message).not.toContain('secret-pw');
      expect((thrown as Error).message).not.toContain('\n');
    }
  });

  it('prints where Redis is with every secret masked', () => {
    expect(printableRedis({})).toBe('none (this process only)');
    const printed = JSON.stringify(printableRedis({ MCPGEN_REDIS_CLUSTER: 'a:7000,b:7000', MCPGEN_REDIS_USERNAME: 'app', MCPGEN_REDIS_PASSWORD: 'secret-pw' }));
    expect(JSON.parse(printed)).toEqual({ topology: 'cluster', where: 'cluster via a:7000,b:7000', username: '***', password: '***', tls: 'off' });
  });
});
