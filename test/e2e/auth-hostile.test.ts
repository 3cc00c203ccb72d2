// Hostile tokens against a protected generated server (specs/secure.yaml) verifying with the JWKS of a
// real authorization server (oidc-provider on 127.0.0.1). Forged tokens are signed with the AS's own
// key where the attack needs a valid signature, so only the claim or header under test is wrong.
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecureNotesHandlers } from '../../generated/secure-notes/server.js';
import type { McpgenServer, ServerOptions } from '../../packages/runtime/src/server/index.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/oidc-as.js';
import { request as httpRequest } from 'node:http';
import { mcpRequest } from '../support/mcp-request.js';
import { rawCall } from '../support/raw-call.js';
import { importCompiled } from '../support/servers.js';

let as: TestAuthorizationServer;
let server: Awaited<ReturnType<McpgenServer['listen']>>;

beforeAll(async () => {
  as = await startAuthorizationServer();
  const { createSecureNotesServer } = await importCompiled<{ createSecureNotesServer: (h: SecureNotesHandlers, o?: ServerOptions) => McpgenServer }>('secure-notes', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');
  server = await createSecureNotesServer(handlers, { auth: { authorizationServers: [as.issuer], jwksCooldownMs: 0 } }).listen({ port: 0 });
});
afterAll(async () => {
  await server?.close(1000);
  await as?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const claims = (over: Record<string, unknown> = {}) => ({ iss: as.issuer, aud: server.url, sub: 'mallory', client_id: 'm2m', scope: 'notes.read', iat: now(), exp: now() + 300, jti: 'j1', ...over });
const without = (key: string) => Object.fromEntries(Object.entries(claims()).filter(([k]) => k !== key));

async function attackerKey() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey) };
}

/** A token the AS signed, padded (a claim, then a header field) to exactly `length` characters. */
async function tokenOfLength(length: number): Promise<string> {
  for (let extra = 0; extra < 4; extra++) {
    let pad = 0;
    for (let tries = 0; tries < 20; tries++) {
      const token = await as.sign(claims({ pad: 'p'.repeat(pad) }), extra > 0 ? { h: 'h'.repeat(extra) } : {});
      if (token.length === length) return token;
      if (token.length > length) break;
      pad += Math.max(1, Math.floor(((length - token.length) * 3) / 4));
    }
  }
  throw new Error(`no token of ${length} characters`);
}

type Case = readonly [kind: string, authorization: () => Promise<string | undefined>, status: number, error: string | undefined];

const CASES: Case[] = [
  ['no Authorization header', async () => undefined, 401, undefined],
  ['another scheme (Basic)', async () => 'Basic dXNlcjpwYXNz', 401, undefined],
  ['Bearer with no token', async () => 'Bearer', 401, undefined],
  ['Bearer with a blank token', async () => 'Bearer    ', 401, undefined],
  ['two tokens in one header', async () => `Bearer ${await as.sign(claims())} ${await as.sign(claims())}`, 400, 'invalid_request'],
  ['two Bearer credentials joined by a comma', async () => `Bearer ${await as.sign(claims())}, Bearer ${await as.sign(claims())}`, 400, 'invalid_request'],
  ['characters outside token68', async () => 'Bearer eyJ!"§$%.e30.sig', 401, 'invalid_token'],
  ['token68 then a stray quote', async () => `Bearer ${await as.sign(claims())}"`, 401, 'invalid_token'],
  ['long garbage token (10,000 characters, under the header limit)', async () => `Bearer ${'A'.repeat(10_000)}`, 401, 'invalid_token'],
  ['token past the HTTP header limit (20,000 characters)', async () => `Bearer ${'A'.repeat(20_000)}`, 431, undefined],
  ['opaque string, not a JWT', async () => 'Bearer opaque-token-0123456789', 401, 'invalid_token'],
  ['bad base64 in the header segment', async () => 'Bearer aGVsbG8+/+.e30.c2ln', 401, 'invalid_token'],
  ['header segment is not JSON', async () => `Bearer ${b64('not json')}.${b64(claims())}.c2ln`, 401, 'invalid_token'],
  ['large JOSE header (6 KB, validly signed: verified, not refused for length)', async () => `Bearer ${await as.sign(claims(), { x: 'y'.repeat(6000) })}`, 200, undefined],
  ['valid token of exactly 8,194 characters', async () => `Bearer ${await tokenOfLength(8194)}`, 200, undefined],
  ['alg none (unsigned)', async () => `Bearer ${new UnsecuredJWT(claims()).setIssuer(as.issuer).encode()}`, 401, 'invalid_token'],
  ['alg none with typ at+jwt and a known kid', async () => `Bearer ${b64({ alg: 'none', typ: 'at+jwt', kid: as.key().kid })}.${b64(claims())}.`, 401, 'invalid_token'],
  ['HS256 signed with the public key as the secret', async () => {
    const { kty, n, e } = as.key().jwk;
    const secret = new TextEncoder().encode(JSON.stringify({ kty, n, e }));
    return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: as.key().kid }).sign(secret)}`;
  }, 401, 'invalid_token'],
  ['signature stripped', async () => `Bearer ${(await as.sign(claims())).split('.').slice(0, 2).join('.')}.`, 401, 'invalid_token'],
  ['payload tampered after signing (scope widened)', async () => {
    const [h, , s] = (await as.sign(claims())).split('.');
    return `Bearer ${h}.${b64(claims({ scope: 'notes.read notes.write notes.admin' }))}.${s}`;
  }, 401, 'invalid_token'],
  ['unknown kid (attacker key)', async () => {
    const { privateKey } = await attackerKey();
    return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'attacker' }).sign(privateKey)}`;
  }, 401, 'invalid_token'],
  ['known kid, signed by another key', async () => {
    const { privateKey } = await attackerKey();
    return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: as.key().kid }).sign(privateKey)}`;
  }, 401, 'invalid_token'],
  ['attacker key embedded in the header (jwk)', async () => {
    const { privateKey, jwk } = await attackerKey();
    return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', jwk }).sign(privateKey)}`;
  }, 401, 'invalid_token'],
  ['wrong issuer', async () => `Bearer ${await as.sign(claims({ iss: 'https://evil.example.com' }))}`, 401, 'invalid_token'],
  ['issuer with a trailing slash', async () => `Bearer ${await as.sign(claims({ iss: `${as.issuer}/` }))}`, 401, 'invalid_token'],
  ['no issuer', async () => `Bearer ${await as.sign(without('iss'))}`, 401, 'invalid_token'],
  ['audience of another resource', async () => `Bearer ${await as.sign(claims({ aud: 'https://other.example.com/mcp' }))}`, 401, 'invalid_token'],
  ['audience of this host, another path', async () => `Bearer ${await as.sign(claims({ aud: new URL('/other', server.url).toString() }))}`, 401, 'invalid_token'],
  ['no audience', async () => `Bearer ${await as.sign(without('aud'))}`, 401, 'invalid_token'],
  ['expired', async () => `Bearer ${await as.sign(claims({ iat: now() - 600, exp: now() - 120 }))}`, 401, 'invalid_token'],
  ['no exp', async () => `Bearer ${await as.sign(without('exp'))}`, 401, 'invalid_token'],
  ['nbf in the future', async () => `Bearer ${await as.sign(claims({ nbf: now() + 600 }))}`, 401, 'invalid_token'],
  ['iat in the future', async () => `Bearer ${await as.sign(claims({ iat: now() + 600 }))}`, 401, 'invalid_token'],
  ['exp not a number', async () => `Bearer ${await as.sign(claims({ exp: 'tomorrow' }))}`, 401, 'invalid_token'],
  ['typ JWT instead of at+jwt (an ID token, say)', async () => `Bearer ${await as.sign(claims(), { typ: 'JWT' })}`, 401, 'invalid_token'],
  ['unknown critical header (validly signed)', async () => {
    const key = as.key();
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, crit: ['x-unknown'], 'x-unknown': 1 }).sign(key.privateKey, { crit: { 'x-unknown': true } });
    return `Bearer ${token}`;
  }, 401, 'invalid_token'],
  ['JWE (five segments)', async () => `Bearer ${b64({ alg: 'dir', enc: 'A256GCM' })}..${b64('iv')}.${b64('ct')}.${b64('tag')}`, 401, 'invalid_token'],
  ['valid token, scope the tool does not need (control)', async () => `Bearer ${await as.sign(claims())}`, 200, undefined],
];

describe('hostile tokens', () => {
  it(`the table has at least 20 kinds (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });

  for (const [kind, authorization, status, error] of CASES) {
    it(`${kind} → ${status}${error !== undefined ? ` ${error}` : ''}`, async () => {
      const response = await rawCall(server.url, await authorization());
      const body = await response.text();
      expect(response.status).toBe(status);
      if (status === 200) return;
      const challenge = response.headers.get('www-authenticate') ?? '';
      if (status === 431) return; // Node refuses the request head itself, before any handler
      // RFC 6750 §3: every refusal carries a challenge naming the metadata (400 invalid_request included).
      if (status === 401 || status === 400) expect(challenge).toContain(`resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp"`);
      if (error === undefined) expect(challenge).not.toContain('error=');
      else expect(`${challenge} ${body}`).toContain(error);
      expect(body).not.toMatch(/\bat .+:\d+:\d+|Error:|node_modules/); // no stack, no internals
    });
  }

  it('two Authorization lines (not a list field, RFC 9110 §5.3) → 400 invalid_request with a challenge, though each is valid', async () => {
    const good = `Bearer ${await as.sign(claims())}`;
    const { status, headers } = await twoLines(server.url, [good, good]);
    expect(status).toBe(400);
    expect(headers['www-authenticate']).toContain('error="invalid_request"');
    expect(headers['www-authenticate']).toContain('resource_metadata="');
    expect((await twoLines(server.url, [good])).status).toBe(200); // control: the same request with one line
  });

  it('a header block past maxHeaderBytes (16 KiB default) → 431', async () => {
    expect((await rawCall(server.url, `Bearer ${'A'.repeat(17_000)}`)).status).toBe(431);
  });

  it('the server is still alive and serving after the whole table', async () => {
    expect((await rawCall(server.url, `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`)).status).toBe(200);
  });
});

describe('an authorization server that is down', () => {
  it('a cached JWKS keeps verifying known keys; an unknown kid while the JWKS is unreachable is 503 (retry later), never a crash', async () => {
    const good = `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`;
    expect((await rawCall(server.url, good)).status).toBe(200);
    as.down = true;
    try {
      expect((await rawCall(server.url, good)).status).toBe(200);
      const { privateKey } = await attackerKey();
      const unknown = `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'rotated-away' }).sign(privateKey)}`;
      const response = await rawCall(server.url, unknown);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.text()).not.toMatch(/\bat .+:\d+:\d+|node_modules/);
    } finally {
      as.down = false;
    }
    expect((await rawCall(server.url, good)).status).toBe(200);
  });

  it('a server started while the AS is down answers 503 until the AS is back, then verifies', async () => {
    const { createSecureNotesServer } = await importCompiled<{ createSecureNotesServer: (h: SecureNotesHandlers, o?: ServerOptions) => McpgenServer }>('secure-notes', 'server.js');
    const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');
    const fresh = await createSecureNotesServer(handlers, { auth: { authorizationServers: [as.issuer] } }).listen({ port: 0 });
    try {
      const token = `Bearer ${await as.clientCredentialsToken(fresh.url, 'notes.read')}`;
      as.down = true;
      try {
        expect((await rawCall(fresh.url, token)).status).toBe(503);
      } finally {
        as.down = false;
      }
      expect((await rawCall(fresh.url, token)).status).toBe(200);
    } finally {
      await fresh.close(1000);
    }
  });
});

/** The whoami call with each Authorization value on its own header line (node:http sends an array so). */
async function twoLines(url: string, authorization: string[]): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const web = mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { url, name: 'whoami', meta: { 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } });
  const body = Buffer.from(await web.text());
  const headers: Record<string, string | string[]> = { authorization, 'content-length': String(body.length) };
  web.headers.forEach((v, k) => (headers[k] = v));
  headers.authorization = authorization;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
