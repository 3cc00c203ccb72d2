// Issue 30, items 2 and 4: the probes and the per-environment settings of a generated main.js, over real HTTP.
// Liveness and readiness outside the Host check and the bearer gate; readiness 503 while draining after SIGTERM,
// and before the authorization server was discovered (while Redis is down: test/interop/redis-faults.test.ts,
// with the Debian packages the interop suite installs); the issuer and
// resource identifier from flags and variables reaching the server; every wrong value one line and exit 1.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEntryArgs } from '@mcpgen/runtime/server';
import { describe, expect, it } from 'vitest';
import { rawCall } from '../support/raw-http.js';
import { waitFor } from '../support/ports.js';
import { compiledMain, runToExit, startScript } from '../support/servers.js';

/** GET a path with the given headers (node:http: fetch cannot set Host). */
function get(url: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path, method, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.once('error', reject);
    req.end();
  });
}


/** An authorization server's metadata endpoint that fails until told otherwise. */
async function flakyAuthorizationServer(): Promise<{ issuer: string; up: (ok: boolean) => void; hits: () => number; close: () => Promise<void> }> {
  let ok = false;
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    if (!ok) return void res.writeHead(503).end();
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, up: (v) => (ok = v), hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

describe('per-environment settings', () => {
  const auth = { auth: true };
  const configError = (argv: string[], env = {}, features = auth) => {
    const c = parseEntryArgs(argv, env, features);
    return c.kind === 'config-error' ? c.message : `not a config error: ${JSON.stringify(c)}`;
  };

  it('reads the issuers, the resource identifier, the probe paths and the shutdown delay from flags and variables', () => {
    const env = { MCPGEN_AUTH_ISSUERS: 'https://as.example/, https://login.example/tenant', MCPGEN_AUTH_RESOURCE: 'https://mcp.example/mcp', MCPGEN_READY_PATH: '/ready', MCPGEN_SHUTDOWN_DELAY_SECONDS: '5' };
    expect(parseEntryArgs(['--http', '--health-path', 'off', '--auth-resource=https://staging.example/mcp'], env, auth)).toMatchObject({
      kind: 'run',
      args: { healthPath: false, readyPath: '/ready', shutdownDelaySeconds: 5, auth: { authorizationServers: ['https://as.example/', 'https://login.example/tenant'], resource: 'https://staging.example/mcp' } },
    });
    // A development AS on loopback may be http.
    expect(parseEntryArgs(['--http', '--auth-issuers', 'http://127.0.0.1:9000'], {}, auth)).toMatchObject({ args: { auth: { authorizationServers: ['http://127.0.0.1:9000'] } } });
    // Without auth: in the spec the flags do not exist, and the variables change nothing.
    expect(parseEntryArgs(['--http', '--auth-issuers', 'https://as.example'])).toEqual({ kind: 'usage-error', message: 'unknown option --auth-issuers' });
    expect(parseEntryArgs(['--http'], env)).not.toHaveProperty('args.auth');
    expect(parseEntryArgs(['--auth-issuers', 'https://as.example'], {}, auth)).toEqual({ kind: 'usage-error', message: '--auth-issuers applies to --http only' });
  });

  it('refuses each wrong value with one line naming where it came from', () => {
    const table: [string[], Record<string, string>, string][] = [
      [['--http'], { MCPGEN_AUTH_ISSUERS: 'http://as.example' }, 'MCPGEN_AUTH_ISSUERS: "http://as.example" is not https (http only on a loopback address)'],
      [['--http', '--auth-issuers', 'as.example'], {}, '--auth-issuers: "as.example" is not a URL (an issuer is an https URL)'],
      [['--http', '--auth-issuers', 'https://as.example/?x=1'], {}, '--auth-issuers: "https://as.example/?x=1" has a query (an issuer identifier has none)'],
      [['--http'], { MCPGEN_AUTH_ISSUERS: ' , ' }, 'MCPGEN_AUTH_ISSUERS is empty'],
      [['--http', '--auth-resource', 'https://mcp.example/mcp#x'], {}, '--auth-resource: "https://mcp.example/mcp#x" has a fragment (a resource identifier has none)'],
      [['--http'], { MCPGEN_AUTH_RESOURCE: 'https://user:pw@mcp.example/' }, 'MCPGEN_AUTH_RESOURCE: "https://user:pw@mcp.example/" holds credentials'],
      [['--http', '--health-path', 'healthz'], {}, '--health-path: "healthz" is not a path (starts with /, no query; off turns the probe off)'],
      [['--http'], { MCPGEN_READY_PATH: '/mcp' }, 'MCPGEN_READY_PATH: /mcp is taken (the MCP endpoint or the authorization metadata)'],
      [['--http', '--health-path', '/probe', '--ready-path', '/probe'], {}, 'the health and readiness probes need two paths, both are /probe'],
      [['--http'], { MCPGEN_SHUTDOWN_DELAY_SECONDS: '-1' }, 'MCPGEN_SHUTDOWN_DELAY_SECONDS must be a whole number of seconds (0-600), got "-1"'],
      [['--http', '--port', '70000'], {}, '--port must be a port number (0-65535), got "70000"'],
      [['--http'], { MCPGEN_READ_ONLY: 'yes' }, 'MCPGEN_READ_ONLY must be 1, true, 0 or false, got "yes"'],
      [[], { MCPGEN_READ_ONLY: 'on' }, 'MCPGEN_READ_ONLY must be 1, true, 0 or false, got "on"'],
      [['--http'], { MCPGEN_TOOLSETS: '' }, 'MCPGEN_TOOLSETS is empty'],
      [[], { MCPGEN_TOOLSETS: ' , ' }, 'MCPGEN_TOOLSETS is empty'],
      [['--http'], { MCPGEN_ALLOWED_HOSTS: 'https://svc.example' }, 'MCPGEN_ALLOWED_HOSTS: "https://svc.example" is not a hostname (no scheme, no port; IPv6 in brackets)'],
    ];
    for (const [argv, env, message] of table) expect(configError(argv, env)).toBe(message);
  });

  it('main.js: a wrong value is one line on stderr and exit 1; --help lists the settings the server has', async () => {
    const bad = await runToExit('secure-notes', ['--http', '--port', '0'], { MCPGEN_AUTH_ISSUERS: 'http://as.example' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('main.js: MCPGEN_AUTH_ISSUERS: "http://as.example" is not https (http only on a loopback address)\n');
    const badPath = await runToExit('weather', ['--http', '--ready-path', 'ready']);
    expect(badPath.code).toBe(1);
    expect(badPath.stderr.trim().split('\n')).toHaveLength(1);
    const emptyToolsets = await runToExit('weather', ['--http', '--port', '0'], { MCPGEN_TOOLSETS: '' });
    expect(emptyToolsets.code).toBe(1);
    expect(emptyToolsets.stderr).toBe('main.js: MCPGEN_TOOLSETS is empty\n');
    const help = await runToExit('secure-notes', ['--help']);
    expect(help.code).toBe(0);
    for (const name of ['--auth-issuers', 'MCPGEN_AUTH_ISSUERS', '--auth-resource', 'MCPGEN_AUTH_RESOURCE', '--health-path', 'MCPGEN_HEALTH_PATH', '--ready-path', 'MCPGEN_READY_PATH', '--shutdown-delay', 'MCPGEN_SHUTDOWN_DELAY_SECONDS', 'REDIS_URL', 'MCPGEN_REDIS_SENTINELS', 'MCPGEN_REDIS_MASTER_NAME', 'MCPGEN_REDIS_CLUSTER', 'MCPGEN_REDIS_TLS_CA', 'MCPGEN_REDIS_SENTINEL_PASSWORD', 'MCPGEN_TELEMETRY', 'MCPGEN_RATE_LIMIT', 'MCPGEN_RATE_LIMIT_TOOLS', 'MCPGEN_ACCESS_LOG', '--print-config']) expect(help.stdout).toContain(name);
    const plain = await runToExit('weather', ['--help']);
    expect(plain.stdout).toContain('--ready-path');
    expect(plain.stdout).not.toContain('--auth-issuers');
  });
});

describe('main.js --print-config', () => {
  it('prints the resolved settings as JSON with secrets masked, and refuses a wrong value like serving would', async () => {
    const secret = 'a-request-state-secret-of-more-than-32-bytes';
    const env = { REDIS_URL: 'redis://app:hunter2-password@redis.internal:6379/2', MCPGEN_REQUEST_STATE_KEYS: `k2:${secret},k1:${secret}-old`, MCPGEN_RATE_LIMIT_TOOLS: 'add_note=5/1s', MCPGEN_AUTH_RESOURCE: 'https://notes.example/mcp' };
    const out = await runToExit('secure-notes', ['--http', '--port', '8080', '--auth-issuers', 'https://login.example', '--print-config'], env);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      transport: 'http',
      port: 8080,
      healthPath: '/healthz',
      authIssuers: ['https://login.example'],
      authResource: 'https://notes.example/mcp',
      redis: { topology: 'standalone', where: 'redis://***:***@redis.internal:6379/2', tls: 'off' },
      requestStateKeys: ['k2:***', 'k1:***'],
      rateLimits: { tools: { add_note: '5/1s' }, countedIn: 'Redis (shared by every instance)' },
      telemetry: 'off',
    });
    for (const hidden of ['hunter2', secret, 'app:']) expect(out.stdout).not.toContain(hidden);
    // Sentinel with separate credentials: where it is, never the passwords.
    const sentinel = await runToExit('weather', ['--print-config'], { MCPGEN_REDIS_SENTINELS: '10.0.0.1:26379,10.0.0.2:26379', MCPGEN_REDIS_MASTER_NAME: 'mymaster', MCPGEN_REDIS_PASSWORD: 'data-pw', MCPGEN_REDIS_SENTINEL_PASSWORD: 'sentinel-pw', MCPGEN_REDIS_TLS: 'on' });
    expect(sentinel.code).toBe(0);
    expect(JSON.parse(sentinel.stdout)).toMatchObject({ redis: { topology: 'sentinel', where: 'sentinel mymaster via 10.0.0.1:26379,10.0.0.2:26379', password: '***', sentinelPassword: '***', tls: 'on' } });
    for (const hidden of ['data-pw', 'sentinel-pw']) expect(sentinel.stdout).not.toContain(hidden);
    const twoTopologies = await runToExit('weather', ['--print-config'], { REDIS_URL: 'redis://127.0.0.1:6379', MCPGEN_REDIS_CLUSTER: '10.0.0.1:7000' });
    expect(twoTopologies.code).toBe(1);
    expect(twoTopologies.stderr).toBe('main.js: set one of REDIS_URL, MCPGEN_REDIS_SENTINELS and MCPGEN_REDIS_CLUSTER, not REDIS_URL and MCPGEN_REDIS_CLUSTER\n');
    const bad = await runToExit('weather', ['--print-config'], { MCPGEN_RATE_LIMIT: 'lots' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('main.js: MCPGEN_RATE_LIMIT: "lots" is not a rate (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)\n');
  });
});

describe('health and readiness over real HTTP', () => {
  it('answers the probes without an allowed Host, on configured paths; readiness goes 503 at SIGTERM while requests are still served', async () => {
    const server = await startScript(compiledMain('weather'), ['--shutdown-delay', '3'], { env: { MCPGEN_HEALTH_PATH: '/livez' } });
    try {
      // A kubelet names the pod by its address: not an allowed Host, yet the probes answer.
      const probeHeaders = { host: '10.1.2.3:8080' };
      expect(await get(server.url, '/livez', probeHeaders)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      expect(await get(server.url, '/readyz', probeHeaders)).toMatchObject({ status: 200, body: '{"status":"ready"}', headers: { 'cache-control': 'no-store' } });
      expect((await get(server.url, '/healthz', probeHeaders)).status).toBe(404); // moved to /livez
      expect((await get(server.url, '/readyz', {}, 'POST')).status).toBe(405);
      expect((await get(server.url, '/mcp', probeHeaders, 'POST')).status).toBe(403); // the endpoint keeps its Host check
      server.child.kill('SIGTERM');
      await waitFor(async () => (await get(server.url, '/readyz')).status === 503, 2000);
      expect(await get(server.url, '/readyz')).toMatchObject({ status: 503, body: '{"status":"not ready"}' });
      expect((await get(server.url, '/livez')).status).toBe(200);
      // Still serving during the delay: the balancer takes the instance out before it closes.
      const call = rawCall(server.url, 'tools/list', {});
      expect((await call.response).statusCode).toBe(200);
      const code = await new Promise<number | null>((r) => server.child.once('exit', (c) => r(c)));
      expect(code).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('with auth: not ready before the issuer from MCPGEN_AUTH_ISSUERS was discovered; the probes need no token; the resource comes from --auth-resource', async () => {
    const as = await flakyAuthorizationServer();
    const server = await startScript(compiledMain('secure-notes'), ['--auth-resource', 'https://notes.staging.example/mcp'], { env: { MCPGEN_AUTH_ISSUERS: as.issuer } });
    try {
      expect(await get(server.url, '/readyz')).toMatchObject({ status: 503, body: '{"status":"not ready"}' }); // no detail on the network
      expect(as.hits()).toBeGreaterThan(0);
      expect((await get(server.url, '/healthz')).status).toBe(200);
      as.up(true);
      await waitFor(async () => (await get(server.url, '/readyz')).status === 200);
      const metadata = JSON.parse((await get(server.url, '/.well-known/oauth-protected-resource')).body) as { resource: string; authorization_servers: string[] };
      expect(metadata).toMatchObject({ resource: 'https://notes.staging.example/mcp', authorization_servers: [as.issuer] });
      // The endpoint itself still wants a token.
      expect((await rawCall(server.url, 'tools/list', {}).response).statusCode).toBe(401);
    } finally {
      await server.stop();
      await as.close();
    }
  });
});
