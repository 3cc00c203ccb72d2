// The generated client's OAuth 2.1 authorization over real HTTP on 127.0.0.1: a generated weather server
// behind a protected-resource gate, and a small authorization server (test/support/fake-oauth.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WeatherClient as WeatherClientType } from '../../generated/weather/client.js';
import type { createWeatherServer as CreateWeatherServer, WeatherHandlers } from '../../generated/weather/server.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';
import { authorizationCode, clientCredentials, finishAuthorization, InsufficientScopeError, UnauthorizedError, type OAuthClientProvider } from '../../packages/runtime-client/src/index.js';
import { FakeAuthorizationServer, ProtectedGate, type FakeAsOptions } from '../support/fake-oauth.js';
import { createProgram } from '../support/compiler-host.js';
import { importCompiled, ROOT } from '../support/servers.js';

let WeatherClient: typeof WeatherClientType;
let upstream: string;
const stops: (() => Promise<void>)[] = [];
const perTest: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const { createWeatherServer } = await importCompiled<{ createWeatherServer: typeof CreateWeatherServer }>('weather', 'server.js');
  const { handlers } = await importCompiled<{ handlers: WeatherHandlers }>('weather', 'handlers.js');
  const running = await createWeatherServer(handlers).listen({ port: 0 });
  upstream = running.url;
  stops.push(() => running.close(500));
  ({ WeatherClient } = await importCompiled<{ WeatherClient: typeof WeatherClientType }>('weather', 'client.js'));
});

afterEach(async () => {
  await Promise.all(perTest.splice(0).map((s) => s()));
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

const REDIRECT = 'http://127.0.0.1:9/callback';

/** What a browser does with an authorization server that approves at once: follow the URL, read the redirect back. */
async function followAuthorization(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`authorization endpoint answered ${response.status}`);
  return location;
}

interface Setup {
  readonly as: FakeAuthorizationServer;
  readonly gate: ProtectedGate;
}

async function setup(asOptions: FakeAsOptions, scopesFor: (method: string, name: string | undefined) => readonly string[], scopesSupported?: readonly string[]): Promise<Setup> {
  const as = await new FakeAuthorizationServer(asOptions).start();
  const gate = await new ProtectedGate({ upstream, authorizationServers: () => [as.issuer], tokens: (t) => as.tokens.get(t), scopesFor, ...(scopesSupported ? { scopesSupported } : {}) }).start();
  perTest.push(() => gate.stop(), () => as.stop());
  return { as, gate };
}

function userProvider(overrides: Partial<Parameters<typeof authorizationCode>[0]> = {}): OAuthClientProvider {
  return authorizationCode({ redirectUrl: REDIRECT, authorize: followAuthorization, clientId: 'app', ...overrides });
}

const basicOnly = () => ['mcp:basic'];

describe('generated client with OAuth 2.1', () => {
  it('401 → protected-resource and authorization-server discovery → PKCE authorization with resource → token → the request again', async () => {
    const { as, gate } = await setup({ clients: { app: undefined }, scopes: ['mcp:basic'] }, basicOnly);
    const client = await WeatherClient.connect({ url: gate.url, auth: userProvider() });
    try {
      const result = await client.add({ a: 2, b: 3 });
      expect(result.structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
    }
    // One challenge without a token, then every request authorized.
    expect(gate.challenges.map((c) => c.status)).toEqual([401]);
    expect(gate.challenges[0]!.header).not.toContain('error=');
    expect(as.at('/.well-known/oauth-authorization-server')).not.toHaveLength(0);
    const [authorize] = as.at('/authorize');
    expect(authorize!.params).toMatchObject({ client_id: 'app', response_type: 'code', code_challenge_method: 'S256', resource: gate.url, scope: 'mcp:basic', redirect_uri: REDIRECT });
    expect(authorize!.params.state).toMatch(/^[\w-]{16,}$/);
    const [token] = as.at('/token');
    expect(token!.params).toMatchObject({ grant_type: 'authorization_code', resource: gate.url, redirect_uri: REDIRECT });
    expect(token!.params.code_verifier).toMatch(/^[\w.~-]{43,128}$/);
  });

  it('403 insufficient_scope → step-up asking for the union of the scopes → success', async () => {
    const scopesFor = (method: string, name: string | undefined) => (method === 'tools/call' && name === 'add' ? ['mcp:basic', 'weather:write'] : ['mcp:basic']);
    const { as, gate } = await setup({ clients: { app: undefined }, scopes: ['mcp:basic', 'weather:read', 'weather:write'] }, scopesFor, ['mcp:basic', 'weather:read', 'weather:write']);
    const client = await WeatherClient.connect({ url: gate.url, auth: userProvider() });
    try {
      expect((await client.getAlerts({ state: 'CA' })).isError).toBe(false);
      expect((await client.add({ a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
    } finally {
      await client.close();
    }
    expect(gate.challenges.map((c) => c.status)).toEqual([401, 403]);
    const scopes = as.at('/authorize').map((r) => r.params.scope!.split(' ').sort());
    expect(scopes).toEqual([['mcp:basic'], ['mcp:basic', 'weather:write']]);
  });

  it('keeps earlier scopes on step-up: the union of granted and challenged', async () => {
    // The first challenge asks for weather:read; a later call needs weather:write only.
    const scopesFor = (method: string, name: string | undefined) => (method === 'tools/call' && name === 'add' ? ['weather:write'] : ['weather:read']);
    const { as, gate } = await setup({ clients: { app: undefined }, scopes: ['weather:read', 'weather:write'] }, scopesFor, ['weather:read', 'weather:write']);
    const client = await WeatherClient.connect({ url: gate.url, auth: userProvider() });
    try {
      await client.add({ a: 1, b: 2 });
      await client.getAlerts({ state: 'NY' }); // still allowed: weather:read was kept
    } finally {
      await client.close();
    }
    expect(as.at('/authorize').map((r) => r.params.scope!.split(' ').sort())).toEqual([['weather:read'], ['weather:read', 'weather:write']]);
    expect(gate.challenges.map((c) => c.status)).toEqual([401, 403]);
  });

  it('stops re-authorizing when the server keeps answering 403 (retry limit, per request)', async () => {
    // The gate wants a scope the authorization server never grants: an endless loop without a limit.
    const scopesFor = (method: string) => (method === 'tools/call' ? ['mcp:basic', 'admin'] : ['mcp:basic']);
    const { as, gate } = await setup({ clients: { app: undefined }, scopes: ['mcp:basic'] }, scopesFor);
    const client = await WeatherClient.connect({ url: gate.url, auth: userProvider() });
    try {
      const error = await client.add({ a: 1, b: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect((error as InsufficientScopeError).requiredScope).toBe('mcp:basic admin');
    } finally {
      await client.close();
    }
    // 1 authorization for the 401, 1 step-up, then the 403 is reported.
    expect(as.at('/authorize')).toHaveLength(2);
    expect(gate.challenges.map((c) => c.status)).toEqual([401, 403, 403]);
  });

  it('maxStepUpRetries sets the limit', async () => {
    const scopesFor = (method: string) => (method === 'tools/call' ? ['mcp:basic', 'admin'] : ['mcp:basic']);
    const { as, gate } = await setup({ clients: { app: undefined }, scopes: ['mcp:basic'] }, scopesFor);
    const client = await WeatherClient.connect({ url: gate.url, auth: { provider: userProvider(), maxStepUpRetries: 2 } });
    try {
      await expect(client.add({ a: 1, b: 1 })).rejects.toBeInstanceOf(InsufficientScopeError);
    } finally {
      await client.close();
    }
    expect(as.at('/authorize')).toHaveLength(3);
  });

  it('refuses an authorization response whose iss is not the authorization server (RFC 9207): the code is never redeemed', async () => {
    const { as, gate } = await setup({ clients: { app: undefined }, responseIss: () => 'https://attacker.example' }, basicOnly);
    await expect(WeatherClient.connect({ url: gate.url, auth: userProvider() })).rejects.toThrow(/iss|issuer/i);
    expect(as.at('/authorize')).toHaveLength(1);
    expect(as.at('/token')).toHaveLength(0);
  });

  it('refuses an authorization response without iss when the server promises one', async () => {
    const { as, gate } = await setup({ clients: { app: undefined }, responseIss: () => null }, basicOnly);
    await expect(WeatherClient.connect({ url: gate.url, auth: userProvider() })).rejects.toThrow(/iss/i);
    expect(as.at('/token')).toHaveLength(0);
  });

  it('refuses authorization-server metadata whose issuer is not the one it was fetched for (RFC 8414 §3.3)', async () => {
    const { as, gate } = await setup({ clients: { app: undefined }, publishedIssuer: () => 'https://elsewhere.example' }, basicOnly);
    await expect(WeatherClient.connect({ url: gate.url, auth: userProvider() })).rejects.toThrow(/issuer/i);
    expect(as.at('/authorize')).toHaveLength(0);
  });

  it('refuses an authorization response with another state', async () => {
    const { as, gate } = await setup({ clients: { app: undefined } }, basicOnly);
    const authorize = async (url: URL) => {
      const back = new URL(await followAuthorization(url));
      back.searchParams.set('state', 'forged');
      return back;
    };
    await expect(WeatherClient.connect({ url: gate.url, auth: userProvider({ authorize }) })).rejects.toThrow(/state/);
    expect(as.at('/token')).toHaveLength(0);
  });

  it('an expired token → 401 → refresh (resource again) → the request again; concurrent requests share one refresh', async () => {
    const { as, gate } = await setup({ clients: { app: undefined } }, basicOnly);
    const client = await WeatherClient.connect({ url: gate.url, auth: userProvider() });
    try {
      await client.add({ a: 1, b: 1 });
      as.expireAll();
      const sums = await Promise.all([client.add({ a: 1, b: 2 }), client.add({ a: 2, b: 2 }), client.add({ a: 3, b: 2 })]);
      expect(sums.map((r) => r.structuredContent)).toEqual([{ sum: 3 }, { sum: 4 }, { sum: 5 }]);
    } finally {
      await client.close();
    }
    const refreshes = as.at('/token').filter((r) => r.params.grant_type === 'refresh_token');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.params.resource).toBe(gate.url);
    expect(as.at('/authorize')).toHaveLength(1);
  });

  it('registers dynamically when no client is pre-registered, and asks for a refresh token', async () => {
    const { as, gate } = await setup({ scopes: ['mcp:basic', 'offline_access'] }, basicOnly);
    const client = await WeatherClient.connect({ url: gate.url, auth: authorizationCode({ redirectUrl: REDIRECT, authorize: followAuthorization, clientMetadata: { client_name: 'weather test' } }) });
    try {
      await client.add({ a: 1, b: 1 });
    } finally {
      await client.close();
    }
    const [registration] = as.at('/register');
    expect(registration).toBeDefined();
    expect(as.at('/authorize')[0]!.params.client_id).toMatch(/^dyn-/);
    expect(as.at('/authorize')[0]!.params.scope!.split(' ').sort()).toEqual(['mcp:basic', 'offline_access']);
  });

  it('takes any SDK OAuthClientProvider: a provider that sends the user away fails the request, finishAuthorization redeems the code, the next connect works', async () => {
    const { as, gate } = await setup({ clients: { app: undefined } }, basicOnly);
    // The shape of a provider in a web app: it redirects and returns; the callback arrives elsewhere.
    const store: { tokens?: OAuthTokens; verifier?: string; discovery?: OAuthDiscoveryState; sentTo?: URL } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: REDIRECT,
      clientMetadata: { client_name: 'web app', redirect_uris: [REDIRECT] } as OAuthClientMetadata,
      clientInformation: (): OAuthClientInformationMixed => ({ client_id: 'app' }),
      tokens: () => store.tokens,
      saveTokens: (t) => void (store.tokens = t),
      saveCodeVerifier: (v) => void (store.verifier = v),
      codeVerifier: () => store.verifier!,
      saveDiscoveryState: (d) => void (store.discovery = d),
      discoveryState: () => store.discovery,
      redirectToAuthorization: (url) => void (store.sentTo = url),
    };
    await expect(WeatherClient.connect({ url: gate.url, auth: provider })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(store.sentTo?.searchParams.get('resource')).toBe(gate.url);
    expect(as.at('/token')).toHaveLength(0);
    await finishAuthorization(provider, gate.url, await followAuthorization(store.sentTo!));
    const client = await WeatherClient.connect({ url: gate.url, auth: provider });
    try {
      expect((await client.add({ a: 5, b: 5 })).structuredContent).toEqual({ sum: 10 });
    } finally {
      await client.close();
    }
    expect(as.at('/token')[0]!.params).toMatchObject({ grant_type: 'authorization_code', resource: gate.url });
  });

  it.each(['client_secret_basic', 'client_secret_post'] as const)('client credentials with %s', async (authMethod) => {
    const { as, gate } = await setup({ clients: { svc: 's3cret' } }, basicOnly);
    const client = await WeatherClient.connect({ url: gate.url, auth: clientCredentials({ clientId: 'svc', clientSecret: 's3cret', authMethod, expectedIssuer: as.issuer }) });
    try {
      expect((await client.add({ a: 4, b: 4 })).structuredContent).toEqual({ sum: 8 });
    } finally {
      await client.close();
    }
    const [token] = as.at('/token');
    expect(token!.params).toMatchObject({ grant_type: 'client_credentials', resource: gate.url });
    if (authMethod === 'client_secret_basic') {
      expect(token!.authorization).toBe(`Basic ${Buffer.from('svc:s3cret').toString('base64')}`);
      expect(token!.params.client_secret).toBeUndefined();
    } else {
      expect(token!.authorization).toBeUndefined();
      expect(token!.params).toMatchObject({ client_id: 'svc', client_secret: 's3cret' });
    }
    expect(as.at('/authorize')).toHaveLength(0);
  });

  it('client credentials are sent to no other authorization server than expectedIssuer', async () => {
    const { as, gate } = await setup({ clients: { svc: 's3cret' } }, basicOnly);
    await expect(WeatherClient.connect({ url: gate.url, auth: clientCredentials({ clientId: 'svc', clientSecret: 's3cret', expectedIssuer: 'https://the-real-one.example' }) })).rejects.toThrow();
    expect(as.at('/token')).toHaveLength(0);
  });
});

describe('docs/authorization.md, Client side', () => {
  it('the example typechecks against the generated sql package and the runtime', () => {
    const readme = readFileSync(join(ROOT, 'docs/authorization.md'), 'utf8');
    const block = /```ts\n(import \{ authorizationCode[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const dir = join(ROOT, '.tmp/readme');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'client-auth-example.ts');
    writeFileSync(file, `${block!.replaceAll("'./generated/", "'../../generated/")}\nexport { client, service, signed };\n`);
    // On the shared host: lib.dom, @types/node and the SDK's .d.ts parsed once per worker process, not again here.
    const program = createProgram([file], {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'],
      strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });
});
