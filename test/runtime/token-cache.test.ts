// The default JWT verifier remembers verified tokens (auth/token-cache.ts). Each test would pass without
// the cache; each fails if the cache answered where it must not: an expired token, another audience, a key
// the authorization server withdrew (seen by a new download or by the key set's age), past the bound, or
// a refusal remembered. A small authorization server on 127.0.0.1 serves its metadata and JWKS.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenCache, KEY_SET_MAX_AGE_MS } from '../../packages/runtime/src/server/auth/token-cache.js';
import { AuthUnavailableError, createJwtVerifier, InvalidTokenError, type AuthPrincipal } from '../../packages/runtime/src/server/index.js';

interface Key {
  readonly kid: string;
  readonly privateKey: Parameters<SignJWT["sign"]>[0];
  readonly jwk: JWK;
}

async function newKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = `k-${Math.random().toString(36).slice(2, 10)}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const RESOURCE = 'https://notes.example.com/mcp';
let server: Server;
let issuer: string;
/** What the JWKS publishes now. */
let published: Key[] = [];
let down = false;
let jwksDownloads = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (down) return void res.writeHead(503).end();
    if (req.url === '/jwks') jwksDownloads++;
    const body = req.url === '/jwks' ? { keys: published.map((k) => k.jwk) } : { issuer, jwks_uri: `${issuer}/jwks` };
    res.writeHead(req.url === '/jwks' || req.url === '/.well-known/oauth-authorization-server' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  vi.useRealTimers();
  down = false;
});

const now = () => Math.floor(Date.now() / 1000);

/**
 * Verifies `token` until it is cached (the same principal object comes back), so what follows is answered
 * by the cache if the cache allows it. The first verification downloads the key set, and a token verified
 * while the set was being downloaded is not kept (token-cache.ts): the second is.
 */
async function cachedIn(verifier: ReturnType<typeof createJwtVerifier>, token: string): Promise<AuthPrincipal> {
  await verifier.verify(token, { resource: RESOURCE });
  const p = await verifier.verify(token, { resource: RESOURCE });
  expect(await verifier.verify(token, { resource: RESOURCE })).toBe(p);
  return p;
}
function sign(key: Key, claims: { aud?: string; exp?: number; sub?: string } = {}): Promise<string> {
  return new SignJWT({ scope: 'notes.read', client_id: 'c', sub: claims.sub ?? 'u' })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(issuer)
    .setAudience(claims.aud ?? RESOURCE)
    .setIssuedAt(now())
    .setExpirationTime(claims.exp ?? now() + 3600)
    .sign(key.privateKey);
}

describe('the verified-token cache of the default JWT verifier', () => {
  it('a reused token is verified once: the same frozen principal comes back; size 0 verifies each time', async () => {
    published = [await newKey()];
    const token = await sign(published[0]!);
    const first = await cachedIn(createJwtVerifier([issuer], { log: () => {} }), token);
    expect(Object.isFrozen(first) && Object.isFrozen(first.scopes) && Object.isFrozen(first.claims)).toBe(true);
    const uncached = createJwtVerifier([issuer], { log: () => {}, tokenCacheSize: 0 });
    const a = await uncached.verify(token, { resource: RESOURCE });
    expect(await uncached.verify(token, { resource: RESOURCE })).not.toBe(a);
  });

  it('an expired token is refused although it is cached', async () => {
    published = [await newKey()];
    const token = await sign(published[0]!, { exp: now() + 60 });
    const verifier = createJwtVerifier([issuer], { log: () => {}, clockToleranceSec: 0 });
    await cachedIn(verifier, token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verifier.verify(token, { resource: RESOURCE })).rejects.toThrow(new InvalidTokenError('Token has expired'));
  });

  it('a cached token is refused for another audience (resource)', async () => {
    published = [await newKey()];
    const token = await sign(published[0]!);
    const verifier = createJwtVerifier([issuer], { log: () => {} });
    await cachedIn(verifier, token);
    await expect(verifier.verify(token, { resource: 'https://other.example.com/mcp' })).rejects.toThrow(new InvalidTokenError('Token was not issued for this resource'));
    // …and the entry for its own resource still answers.
    expect((await verifier.verify(token, { resource: RESOURCE })).subject).toBe('u');
  });

  it('key rotation: once a new kid made the key set download again, a cached token of the withdrawn key is refused', async () => {
    const [old, next] = [await newKey(), await newKey()];
    published = [old];
    const oldToken = await sign(old);
    const verifier = createJwtVerifier([issuer], { log: () => {}, jwksCooldownMs: 0 });
    await cachedIn(verifier, oldToken);
    published = [next]; // the old key is withdrawn (compromised), not kept alongside
    const downloads = jwksDownloads;
    await verifier.verify(await sign(next), { resource: RESOURCE });
    expect(jwksDownloads).toBe(downloads + 1);
    await expect(verifier.verify(oldToken, { resource: RESOURCE })).rejects.toThrow(new InvalidTokenError('Token signing key is unknown'));
  });

  it('an entry does not outlive the key set: past its maximum age the token is checked against a fresh download', async () => {
    const [old, next] = [await newKey(), await newKey()];
    published = [old];
    const token = await sign(old, { exp: now() + 7200 });
    const verifier = createJwtVerifier([issuer], { log: () => {} });
    await cachedIn(verifier, token);
    published = [next];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + KEY_SET_MAX_AGE_MS - 60_000);
    expect((await verifier.verify(token, { resource: RESOURCE })).subject).toBe('u'); // still the set it was verified with
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verifier.verify(token, { resource: RESOURCE })).rejects.toThrow(new InvalidTokenError('Token signing key is unknown'));
  });

  it('holds at most tokenCacheSize tokens, the oldest dropped first', async () => {
    published = [await newKey()];
    const verifier = createJwtVerifier([issuer], { log: () => {}, tokenCacheSize: 2 });
    const tokens = await Promise.all(['a', 'b', 'c'].map((sub) => sign(published[0]!, { sub })));
    await verifier.verify(tokens[0]!, { resource: RESOURCE }); // downloads the key set (not kept)
    const principals: AuthPrincipal[] = [];
    for (const t of tokens) principals.push(await verifier.verify(t, { resource: RESOURCE }));
    expect(await verifier.verify(tokens[2]!, { resource: RESOURCE })).toBe(principals[2]);
    expect(await verifier.verify(tokens[1]!, { resource: RESOURCE })).toBe(principals[1]);
    expect(await verifier.verify(tokens[0]!, { resource: RESOURCE })).not.toBe(principals[0]);
    const cache = createTokenCache(2);
    const p = principals[0]!;
    for (let i = 0; i < 5; i++) cache.set(`t${i}`, RESOURCE, { ...p }, { uat: 1 }, 1);
    expect(cache.size).toBe(2);
  });

  it('a refusal is never cached: a token refused while the authorization server was down verifies once it is back', async () => {
    published = [await newKey()];
    const token = await sign(published[0]!);
    const verifier = createJwtVerifier([issuer], { log: () => {} });
    down = true;
    await expect(verifier.verify(token, { resource: RESOURCE })).rejects.toBeInstanceOf(AuthUnavailableError);
    down = false;
    expect((await verifier.verify(token, { resource: RESOURCE })).subject).toBe('u');
  });
});
