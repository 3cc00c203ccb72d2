// Redis over TLS (issue 50): a redis-server with `--tls-port` that asks for client certificates, and a CA,
// a server certificate and a client certificate made here with the openssl CLI. The generated jobs server
// (main.js, configured by REDIS_URL=rediss://…, MCPGEN_REDIS_TLS_CA/_CERT/_KEY) connects and runs a task; a
// Redis whose certificate another CA signed is refused (a certificate error, readiness down), and so is a
// client without a certificate (the server's handshake refuses it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { tempDir } from '../support/root.js';
import { openRedis, type RedisSettings } from '../../packages/runtime/src/server/index.js';
import { freePort, waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

const dir = tempDir('mcpgen-redis-tls-');
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A CA (`name`.crt/.key), and a certificate it signs for `cn` (`leaf`.crt/.key), valid for 127.0.0.1. */
function makeCa(name: string): void {
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`);
}
function makeLeaf(ca: string, leaf: string, cn: string): void {
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${cn}`, '-keyout', `${leaf}.key`, '-out', `${leaf}.csr`);
  openssl('x509', '-req', '-in', `${leaf}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-out', `${leaf}.crt`, '-extfile', 'san.cnf');
}

let redis: RedisServer;
let tlsPort: number;
let server: HttpProcess | undefined;
const stops: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  execFileSync('sh', ['-c', "printf 'subjectAltName=IP:127.0.0.1\\n' > san.cnf"], { cwd: dir });
  makeCa('ca');
  makeLeaf('ca', 'server', '127.0.0.1');
  makeLeaf('ca', 'client', 'mcpgen-instance');
  makeCa('other-ca');
  tlsPort = await freePort();
  redis = await startRedis({ extraArgs: ['--tls-port', String(tlsPort), '--tls-cert-file', file('server.crt'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.crt'), '--tls-auth-clients', 'yes'] });
}, 60_000);

afterAll(async () => {
  // At once: a refused layer lets go only after its connection attempt under way gives up.
  await Promise.allSettled([...stops.map((stop) => stop()), server?.stop('SIGKILL')]);
  await redis?.kill();
});

const url = () => `rediss://127.0.0.1:${tlsPort}`;

/** A layer with these TLS settings: its first outcome (connected, or the reason it is not). */
async function outcome(tls: NonNullable<Extract<RedisSettings, { topology: 'standalone' }>['tls']>): Promise<string> {
  const states: string[] = [];
  const layer = openRedis({ topology: 'standalone', url: url(), tls }, { onStateChange: (state, detail) => void states.push(`${state}${detail ? `: ${detail}` : ''}`) });
  stops.push(layer.retain());
  await waitFor(() => states.length > 0, 10_000);
  return states[0]!;
}

describe('Redis over TLS', () => {
  it('the generated server connects with the CA and a client certificate, and a task runs through it', async () => {
    server = await startScript(compiledMain('jobs'), [], {
      env: { INSTANCE_ID: 'T', REDIS_URL: url(), MCPGEN_REDIS_TLS_CA: file('ca.crt'), MCPGEN_REDIS_TLS_CERT: file('client.crt'), MCPGEN_REDIS_TLS_KEY: file('client.key') },
    });
    await waitFor(() => server!.stderr().includes('redis connected'), 20_000);
    const client = await JobsClient.connect({ url: server.url });
    stops.push(() => client.close());
    expect((await client.render({ frames: 2, frameMs: 10 })).structuredContent).toEqual({ frames: 2, servedBy: 'T' });
    expect((await fetch(`${new URL(server.url).origin}/readyz`)).status).toBe(200);
  }, 60_000);

  it('refuses a Redis whose certificate another CA signed', async () => {
    const state = await outcome({ ca: readFileSync(file('other-ca.crt'), 'utf8'), cert: readFileSync(file('client.crt'), 'utf8'), key: readFileSync(file('client.key'), 'utf8') });
    expect(state).toMatch(/^disconnected: .*(self[- ]signed|unable to (get|verify)|certificate)/i);
  }, 30_000);

  it('is refused by a Redis that asks for a client certificate when it has none', async () => {
    expect(await outcome({ ca: readFileSync(file('ca.crt'), 'utf8') })).toMatch(/^disconnected/);
  }, 30_000);
});
