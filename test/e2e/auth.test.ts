// A protected generated server (specs/secure.yaml, compiled) against a real authorization server
// (oidc-provider on 127.0.0.1), over real HTTP, driven by the official SDK client with the SDK's own
// OAuth providers. The helpers take the server URL and an authorization server, so the same checks can
// run with the generated client's auth option.
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecureNotesHandlers } from '../../generated/secure-notes/server.js';
import type { McpgenServer, ServerOptions } from '../../packages/runtime/src/server/index.js';
import { rawCall } from '../support/raw-call.js';
import { importCompiled } from '../support/servers.js';
import { APP, followAuthorization, M2M, startAuthorizationServer, type TestAuthorizationServer } from '../support/oidc-as.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

type Running = Awaited<ReturnType<McpgenServer['listen']>>;

let as: TestAuthorizationServer;
const servers: Running[] = [];

async function startProtected(options: ServerOptions = {}): Promise<Running> {
  const { createSecureNotesServer } = await importCompiled<{ createSecureNotesServer: (h: SecureNotesHandlers, o?: ServerOptions) => McpgenServer }>('secure-notes', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');
  const server = createSecureNotesServer(handlers, { ...options, auth: { authorizationServers: [as.issuer], jwksCooldownMs: 0, ...options.auth } });
  const running = await server.listen({ port: 0 });
  servers.push(running);
  return running;
}

/** The official SDK client on a client-credentials provider (machine to machine). */
async function sdkClient(url: string, scope: string): Promise<{ client: Client; provider: ClientCredentialsProvider }> {
  const provider = new ClientCredentialsProvider({ clientId: M2M.clientId, clientSecret: M2M.clientSecret, scope, expectedIssuer: as.issuer });
  const client = new Client({ name: 'auth-e2e', version: '1.0.0' }, MODERN);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return { client, provider };
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}

beforeAll(async () => {
  as = await startAuthorizationServer();
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close(1000)));
  await as?.close();
});

describe('protected resource metadata and challenges', () => {
  it('publishes RFC 9728 metadata at the path-inserted and root well-known URIs', async () => {
    const server = await startProtected();
    const origin = new URL(server.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: server.url,
        authorization_servers: [as.issuer],
        scopes_supported: ['notes.read', 'notes.write', 'notes.admin'],
        bearer_methods_supported: ['header'],
        resource_name: 'Secure notes',
      });
    }
  });

  it('answers every request without a token with 401 and a challenge naming the metadata and scope (server/discover included)', async () => {
    const server = await startProtected();
    for (const [method, params] of [['server/discover', {}], ['tools/list', {}], ['tools/call', { name: 'whoami', arguments: {} }]] as const) {
      const response = await rawCall(server.url, undefined, method, params);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp", scope="notes.read"`);
      expect(await response.text()).not.toMatch(/at .*\.js/);
    }
    const get = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(401);
  });
});

describe('the official SDK client with its OAuth providers', () => {
  it('client credentials: discovers the AS through the 401, gets a token for this resource, and the handler sees the caller', async () => {
    const server = await startProtected();
    const { client } = await sdkClient(server.url, 'notes.read');
    try {
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.structuredContent).toEqual({ subject: M2M.clientId, clientId: M2M.clientId, scopes: ['notes.read'] });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'list_notes', 'add_note', 'purge_notes']);
    } finally {
      await client.close();
    }
  });

  it('a tool needing a scope the token lacks: 403 insufficient_scope, the SDK steps up with the union, then the call succeeds', async () => {
    const server = await startProtected();
    const { client, provider } = await sdkClient(server.url, 'notes.read');
    try {
      const added = await client.callTool({ name: 'add_note', arguments: { text: 'step-up works' } });
      expect(text(added)).toBe('added');
      expect((provider.tokens()?.scope ?? '').split(' ').sort()).toEqual(['notes.read', 'notes.write']);
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).structuredContent).toEqual({ notes: expect.arrayContaining(['step-up works']) });
    } finally {
      await client.close();
    }
  });

  it('an expired token gets 401 and the SDK client re-authorizes', async () => {
    const server = await startProtected({ auth: { clockToleranceSec: 0 } });
    // JWT times are whole seconds: a token of TTL n issued late in a second lives just over n - 1 s. 2 s
    // leaves the first call over a second of life (with 1 s it was at times expired on arrival, seen in CI).
    as.accessTokenTtl = 2;
    try {
      const { client } = await sdkClient(server.url, 'notes.read');
      try {
        await client.callTool({ name: 'whoami', arguments: {} });
        const before = as.hits.get('/token') ?? 0;
        // Only the first token is short-lived: the one re-issued after the 401 gets the normal lifetime.
        as.accessTokenTtl = 300;
        await new Promise((r) => setTimeout(r, 3100));
        const me = await client.callTool({ name: 'whoami', arguments: {} });
        expect(me.isError).toBeFalsy();
        expect(as.hits.get('/token') ?? 0).toBeGreaterThan(before);
      } finally {
        await client.close();
      }
    } finally {
      as.accessTokenTtl = 300;
    }
  });

  it('authorization code + PKCE (public client, automatic consent): the user is the subject', async () => {
    const server = await startProtected();
    const provider = new MemoryProvider();
    const transport = () => new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const first = new Client({ name: 'auth-e2e-app', version: '1.0.0' }, MODERN);
    const t1 = transport();
    await expect(first.connect(t1)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(server.url);
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    const { code, iss } = await followAuthorization(provider.authorizationUrl!, APP.redirectUri);
    await t1.finishAuth(code, iss ?? undefined);
    const client = new Client({ name: 'auth-e2e-app', version: '1.0.0' }, MODERN);
    await client.connect(transport());
    try {
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.structuredContent).toMatchObject({ subject: 'alice', clientId: APP.clientId, scopes: ['notes.read'] });
    } finally {
      await client.close();
    }
  });
});

describe('the generated client with the runtime\'s OAuth providers', () => {
  type SecureNotesClient = import('../../generated/secure-notes/client.js').SecureNotesClient;
  const connect = async (url: string, scope: string, auth?: (p: OAuthClientProvider) => object) => {
    const { SecureNotesClient } = await importCompiled<{ SecureNotesClient: typeof import('../../generated/secure-notes/client.js').SecureNotesClient }>('secure-notes', 'client.js');
    const { clientCredentials } = await import('../../packages/runtime-client/src/index.js');
    const provider = clientCredentials({ clientId: M2M.clientId, clientSecret: M2M.clientSecret, scope, expectedIssuer: as.issuer });
    const client: SecureNotesClient = await SecureNotesClient.connect({ url, auth: (auth?.(provider) ?? provider) as never }, { negotiation: 'modern' });
    return { client, provider };
  };

  it('obtains a token from the real AS for this resource and calls the generated protected server', async () => {
    const server = await startProtected();
    const { client, provider } = await connect(server.url, 'notes.read');
    try {
      const me = await client.whoami();
      expect(me.structuredContent).toEqual({ subject: M2M.clientId, clientId: M2M.clientId, scopes: ['notes.read'] });
      // The token is for this server (RFC 8707 resource), not merely for anyone.
      const claims = JSON.parse(Buffer.from((await provider.tokens())!.access_token.split('.')[1]!, 'base64url').toString()) as { aud: unknown };
      expect([claims.aud].flat()).toContain(server.url);
    } finally {
      await client.close();
    }
  });

  it('steps up on 403 insufficient_scope with the union of scopes, then the call succeeds', async () => {
    const server = await startProtected();
    const { client, provider } = await connect(server.url, 'notes.read');
    try {
      const added = await client.addNote({ text: 'generated client step-up' });
      expect(added.isError).toBe(false);
      expect(((await provider.tokens())?.scope ?? '').split(' ').sort()).toEqual(['notes.read', 'notes.write']);
      expect((await client.listNotes()).structuredContent).toEqual({ notes: expect.arrayContaining(['generated client step-up']) });
    } finally {
      await client.close();
    }
  });

  it('re-authorizes when the token expires', async () => {
    const server = await startProtected({ auth: { clockToleranceSec: 0 } });
    as.accessTokenTtl = 2; // whole-second JWT times: see 'an expired token gets 401' above
    try {
      const { client } = await connect(server.url, 'notes.read');
      try {
        await client.whoami();
        const before = as.hits.get('/token') ?? 0;
        as.accessTokenTtl = 300;
        await new Promise((r) => setTimeout(r, 3100));
        expect((await client.whoami()).isError).toBe(false);
        expect(as.hits.get('/token') ?? 0).toBeGreaterThan(before);
      } finally {
        await client.close();
      }
    } finally {
      as.accessTokenTtl = 300;
    }
  });
});

describe('tokens the server must refuse, and keys that change', () => {
  it('a token for another resource → 401 invalid_token', async () => {
    const server = await startProtected();
    const token = await as.clientCredentialsToken('https://other.example.com/mcp', 'notes.read');
    const response = await rawCall(server.url, `Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="Token was not issued for this resource", scope="notes.read", resource_metadata="/);
    const good = await rawCall(server.url, `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`);
    expect(good.status).toBe(200);
  });

  it('403 lists every scope the operation needs, for tools, resources and prompts, and the handler never runs', async () => {
    const server = await startProtected();
    const reader = `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`;
    const cases = [
      ['tools/call', { name: 'purge_notes', arguments: {} }, 'notes.read notes.admin'],
      ['tools/call', { name: 'add_note', arguments: { text: 'x' } }, 'notes.read notes.write'],
      ['resources/read', { uri: 'notes://audit-log' }, 'notes.read notes.admin'],
      ['prompts/get', { name: 'weekly_review' }, 'notes.read notes.write'],
    ] as const;
    for (const [method, params, scope] of cases) {
      const response = await rawCall(server.url, reader, method, params);
      expect(response.status, `${method} ${JSON.stringify(params)}`).toBe(403);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", error_description="The token lacks a scope this request needs", scope="${scope}", resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp"`);
    }
    const admin = `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read notes.admin')}`;
    const log = (await (await rawCall(server.url, admin, 'resources/read', { uri: 'notes://audit-log' })).json()) as { result: { contents: { text: string }[] } };
    expect(log.result.contents[0]!.text).not.toContain('purged'); // the refused purge never reached its handler
  });

  it('JWKS rotation at the AS: tokens signed with the new key verify (the JWKS is fetched again once), old ones still do', async () => {
    const server = await startProtected();
    const old = `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`;
    expect((await rawCall(server.url, old)).status).toBe(200);
    const jwksFetches = () => as.hits.get('/jwks') ?? 0;
    const before = jwksFetches();
    expect((await rawCall(server.url, old)).status).toBe(200);
    expect(jwksFetches()).toBe(before); // cached
    await as.rotateKeys();
    const fresh = await as.clientCredentialsToken(server.url, 'notes.read');
    expect(JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid).toBe(as.key().kid);
    expect((await rawCall(server.url, `Bearer ${fresh}`)).status).toBe(200);
    expect(jwksFetches()).toBe(before + 1);
    expect((await rawCall(server.url, old)).status).toBe(200);
  });

  it('hideForbiddenTools: tools/list shows only what the token may call (off by default)', async () => {
    const server = await startProtected({ hideForbiddenTools: true });
    const list = async (scope: string) => {
      const response = await rawCall(server.url, `Bearer ${await as.clientCredentialsToken(server.url, scope)}`, 'tools/list', {});
      return ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    };
    expect(await list('notes.read')).toEqual(['whoami', 'list_notes']);
    expect(await list('notes.read notes.write')).toEqual(['whoami', 'list_notes', 'add_note']);
    expect(await list('notes.read notes.write notes.admin')).toEqual(['whoami', 'list_notes', 'add_note', 'purge_notes']);
    const response = await rawCall(server.url, `Bearer ${await as.clientCredentialsToken(server.url, 'notes.read')}`, 'tools/list', {});
    expect(((await response.json()) as { result: { cacheScope: string } }).result.cacheScope).toBe('private');
  });
});

/** A minimal in-memory OAuthClientProvider for a pre-registered public client (authorization code + PKCE). */
class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private saved: { tokens?: unknown; verifier?: string; discovery?: unknown } = {};
  saveDiscoveryState(state: unknown) {
    this.saved.discovery = state;
  }
  discoveryState() {
    return this.saved.discovery as never;
  }
  get redirectUrl() {
    return APP.redirectUri;
  }
  get clientMetadata() {
    return { client_name: 'auth-e2e-app', redirect_uris: [APP.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return { client_id: APP.clientId, issuer: as.issuer };
  }
  tokens() {
    return this.saved.tokens as never;
  }
  saveTokens(tokens: unknown) {
    this.saved.tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.saved.verifier = verifier;
  }
  codeVerifier() {
    return this.saved.verifier ?? '';
  }
}
