// A real OAuth 2.1 authorization server for the tests: oidc-provider on 127.0.0.1 (ephemeral port) with
// resource indicators (JWT access tokens whose audience is the requested resource), client credentials,
// and authorization code + PKCE for a public client whose login and consent are approved automatically.
// Its signing keys are made here, so tests can rotate them and forge tokens with the real key.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const SCOPES = ['notes.read', 'notes.write', 'notes.admin'] as const;
export const M2M = { clientId: 'm2m', clientSecret: 'm2m-secret-0123456789' };
export const APP = { clientId: 'app', redirectUri: 'http://127.0.0.1/callback' };

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: Parameters<SignJWT["sign"]>[0];
  readonly jwk: JWK;
}

export interface TestAuthorizationServer {
  readonly issuer: string;
  /** The key new tokens are signed with. */
  readonly key: () => SigningKey;
  /** Lifetime of access tokens issued from now on, in seconds. */
  accessTokenTtl: number;
  /** Requests the AS answered, by path (e.g. how often the JWKS was fetched). */
  readonly hits: Map<string, number>;
  /** When true, every request gets 503 (AS down). */
  down: boolean;
  /** New signing key; the JWKS publishes it first, with the old one kept for tokens already out. */
  rotateKeys(): Promise<void>;
  /** A client-credentials token straight from the token endpoint. */
  clientCredentialsToken(resource: string, scope: string): Promise<string>;
  /** Sign any claims with the AS's current key (for hostile-token tests). */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${Math.random().toString(36).slice(2, 10)}`;
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  void publicKey;
  return { kid, privateKey, jwk };
}

export async function startAuthorizationServer(): Promise<TestAuthorizationServer> {
  let keys: SigningKey[] = [await newSigningKey()];
  const hits = new Map<string, number>();
  let handler: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (as.down) {
      res.writeHead(503).end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = () => {
    const provider = new Provider(issuer, {
      clients: [
        { client_id: M2M.clientId, client_secret: M2M.clientSecret, grant_types: ['client_credentials'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_basic', scope: SCOPES.join(' ') },
        { client_id: APP.clientId, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], redirect_uris: [APP.redirectUri], application_type: 'native' },
      ],
      jwks: { keys: keys.map((k) => k.jwk) },
      scopes: ['openid', 'offline_access', ...SCOPES],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as unknown as string,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resourceIndicator: string) => ({
            scope: SCOPES.join(' '),
            audience: resourceIndicator,
            accessTokenTTL: as.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
      pkce: { required: () => true },
      ttl: { AccessToken: () => as.accessTokenTtl, ClientCredentials: () => as.accessTokenTtl, AuthorizationCode: 60, Grant: 600, Interaction: 600, RefreshToken: 600, Session: 600, IdToken: 300 },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    } as never);
    return provider;
  };

  let provider = build();
  const approve = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const prompt = details.prompt as { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
    if (prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
      return;
    }
    const params = details.params as { client_id: string };
    const grant = details.grantId !== undefined ? (await provider.Grant.find(details.grantId))! : new provider.Grant({ accountId: (details.session as { accountId: string }).accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope !== undefined) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };
  const install = () => {
    const callback = provider.callback();
    handler = (req, res) => {
      if ((req.url ?? '').startsWith('/interaction/')) {
        approve(req, res).catch((e: unknown) => {
          res.writeHead(500).end(String(e));
        });
        return;
      }
      callback(req, res);
    };
  };
  install();

  const as: TestAuthorizationServer = {
    issuer,
    key: () => keys[0]!,
    accessTokenTtl: 300,
    hits,
    down: false,
    async rotateKeys() {
      keys = [await newSigningKey(), ...keys];
      provider = build();
      install();
    },
    async clientCredentialsToken(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${M2M.clientId}:${M2M.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || body.access_token === undefined) throw new Error(`token endpoint: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async sign(claims, header = {}) {
      const key = keys[0]!;
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header }).sign(key.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return as;
}

/**
 * Follows an authorization URL without a browser: the AS logs "alice" in and consents by itself; cookies
 * are kept between its redirects. Returns the `code` and `iss` of the final redirect to the client.
 */
export async function followAuthorization(url: URL, redirectUri: string): Promise<{ code: string; iss: string | null }> {
  const cookies = new Map<string, string>();
  let next = url.toString();
  for (let i = 0; i < 10; i++) {
    if (next.startsWith(redirectUri)) {
      const done = new URL(next);
      const code = done.searchParams.get('code');
      if (code === null) throw new Error(`authorization failed: ${next}`);
      return { code, iss: done.searchParams.get('iss') };
    }
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (location === null) throw new Error(`authorization stopped at ${next} with ${response.status}`);
    next = new URL(location, next).toString();
  }
  throw new Error('too many redirects during authorization');
}
