// A small OAuth 2.1 authorization server and a protected-resource gate, on 127.0.0.1, for testing the
// generated client's authorization on its own (independent of the conformance suite and of the server
// side). The authorization server approves at once, issues opaque tokens bound to a resource and
// scopes, and records every request; the gate answers 401/403 challenges as MCP 2026-07-28 says and
// forwards authorized requests to an MCP server.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AsRequest {
  readonly path: string;
  readonly params: Record<string, string>;
  readonly authorization: string | undefined;
}

export interface FakeAsOptions {
  /** Scopes the server lists in its metadata (and grants; others are dropped). */
  readonly scopes?: readonly string[];
  /** Pre-registered clients: id → secret (undefined for public clients). */
  readonly clients?: Readonly<Record<string, string | undefined>>;
  /** `issuer` published in the metadata (default: the real one). */
  readonly publishedIssuer?: (real: string) => string;
  /** `iss` put in the authorization response (default: the issuer; null: none). */
  readonly responseIss?: (real: string) => string | null;
  readonly tokenLifetimeSeconds?: number;
}

interface Grant {
  readonly clientId: string;
  readonly scope: string;
  readonly resource: string | undefined;
  readonly challenge?: string;
  readonly redirectUri?: string;
}

export interface IssuedToken {
  readonly scopes: readonly string[];
  readonly resource: string | undefined;
  expiresAt: number;
}

export class FakeAuthorizationServer {
  readonly requests: AsRequest[] = [];
  readonly tokens = new Map<string, IssuedToken>();
  #server: Server | undefined;
  #url = '';
  readonly #codes = new Map<string, Grant>();
  readonly #refresh = new Map<string, Grant>();
  readonly #clients = new Map<string, string | undefined>();

  constructor(readonly options: FakeAsOptions = {}) {
    for (const [id, secret] of Object.entries(options.clients ?? {})) this.#clients.set(id, secret);
  }

  get issuer(): string {
    return this.#url;
  }

  async start(): Promise<this> {
    this.#server = await listenLocal((req, res) => void this.#handle(req, res).catch((e: unknown) => send(res, 500, { error: 'server_error', error_description: String(e) })));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return stopLocal(this.#server);
  }

  /** Requests to one endpoint, e.g. `'/token'`. */
  at(path: string): AsRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Every token issued so far expires now. */
  expireAll(): void {
    for (const t of this.tokens.values()) t.expiresAt = 0;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.#url);
    const body = req.method === 'POST' ? await readBody(req) : '';
    const params = Object.fromEntries(req.method === 'POST' && !(req.headers['content-type'] ?? '').includes('json') ? new URLSearchParams(body) : url.searchParams);
    this.requests.push({ path: url.pathname, params, authorization: req.headers.authorization });
    const scopes = this.options.scopes ?? ['mcp:basic'];
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return send(res, 200, {
        issuer: this.options.publishedIssuer?.(this.#url) ?? this.#url,
        authorization_endpoint: `${this.#url}/authorize`,
        token_endpoint: `${this.#url}/token`,
        registration_endpoint: `${this.#url}/register`,
        scopes_supported: scopes,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const metadata = JSON.parse(body) as Record<string, unknown>;
      const id = `dyn-${randomBytes(4).toString('hex')}`;
      this.#clients.set(id, undefined);
      return send(res, 201, { ...metadata, client_id: id, token_endpoint_auth_method: 'none' });
    }
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      if (!this.#clients.has(p.get('client_id') ?? '')) return send(res, 400, { error: 'unauthorized_client' });
      if (p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge')) return send(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
      const code = randomBytes(12).toString('hex');
      this.#codes.set(code, { clientId: p.get('client_id')!, scope: this.#granted(p.get('scope')), resource: p.get('resource') ?? undefined, challenge: p.get('code_challenge')!, redirectUri: p.get('redirect_uri') ?? '' });
      const back = new URL(p.get('redirect_uri')!);
      back.searchParams.set('code', code);
      if (p.has('state')) back.searchParams.set('state', p.get('state')!);
      const iss = this.options.responseIss ? this.options.responseIss(this.#url) : this.#url;
      if (iss !== null) back.searchParams.set('iss', iss);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const client = this.#authenticate(req, params);
      if (client === undefined) return send(res, 401, { error: 'invalid_client' });
      let grant: Grant | undefined;
      if (params.grant_type === 'authorization_code') {
        grant = this.#codes.get(params.code ?? '');
        this.#codes.delete(params.code ?? '');
        const verifierHash = createHash('sha256').update(params.code_verifier ?? '').digest('base64url');
        if (grant === undefined || grant.clientId !== client || grant.challenge !== verifierHash || grant.redirectUri !== params.redirect_uri) return send(res, 400, { error: 'invalid_grant' });
        if (params.resource !== grant.resource) return send(res, 400, { error: 'invalid_target' });
      } else if (params.grant_type === 'refresh_token') {
        grant = this.#refresh.get(params.refresh_token ?? '');
        if (grant === undefined || grant.clientId !== client) return send(res, 400, { error: 'invalid_grant' });
      } else if (params.grant_type === 'client_credentials') {
        grant = { clientId: client, scope: this.#granted(params.scope), resource: params.resource };
      } else {
        return send(res, 400, { error: 'unsupported_grant_type' });
      }
      const token = `at-${randomBytes(12).toString('hex')}`;
      const lifetime = this.options.tokenLifetimeSeconds ?? 3600;
      this.tokens.set(token, { scopes: grant.scope.split(' ').filter(Boolean), resource: grant.resource, expiresAt: Date.now() + lifetime * 1000 });
      const refresh = params.grant_type === 'client_credentials' ? undefined : `rt-${randomBytes(12).toString('hex')}`;
      if (refresh !== undefined) this.#refresh.set(refresh, grant);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: grant.scope, ...(refresh !== undefined ? { refresh_token: refresh } : {}) });
    }
    send(res, 404, { error: 'not_found' });
  }

  #granted(requested: string | null | undefined): string {
    const known = this.options.scopes ?? ['mcp:basic'];
    return (requested ?? '').split(' ').filter((s) => known.includes(s)).join(' ');
  }

  /** The client id the token request authenticates as (basic, post, or a public client), or undefined. */
  #authenticate(req: IncomingMessage, params: Record<string, string>): string | undefined {
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64').toString().split(':').map(decodeURIComponent) as [string, string];
      return this.#clients.get(id) === secret && secret !== undefined ? id : undefined;
    }
    const id = params.client_id ?? '';
    if (!this.#clients.has(id)) return undefined;
    const secret = this.#clients.get(id);
    return secret === undefined || secret === params.client_secret ? id : undefined;
  }
}

export interface GateOptions {
  /** The MCP server requests are forwarded to. */
  readonly upstream: string;
  readonly authorizationServers: () => readonly string[];
  readonly tokens: (token: string) => IssuedToken | undefined;
  /** Scopes a JSON-RPC request needs (the 401 challenge asks for those of the request that got it). */
  readonly scopesFor: (method: string, name: string | undefined) => readonly string[];
  readonly scopesSupported?: readonly string[];
}

/** An MCP resource server in front of another: Protected Resource Metadata, bearer checks, 401 and 403 challenges. */
export class ProtectedGate {
  readonly challenges: { status: number; header: string }[] = [];
  #server: Server | undefined;
  #url = '';

  constructor(readonly options: GateOptions) {}

  /** The MCP endpoint (and resource identifier). */
  get url(): string {
    return `${this.#url}/mcp`;
  }

  async start(): Promise<this> {
    this.#server = await listenLocal((req, res) => void this.#handle(req, res).catch((e: unknown) => send(res, 500, { error: String(e) })));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return stopLocal(this.#server);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.#url).pathname;
    const metadataUrl = `${this.#url}/.well-known/oauth-protected-resource/mcp`;
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      return send(res, 200, { resource: this.url, authorization_servers: this.options.authorizationServers(), scopes_supported: this.options.scopesSupported ?? ['mcp:basic'], bearer_methods_supported: ['header'] });
    }
    if (path !== '/mcp') return send(res, 404, { error: 'not_found' });
    const body = req.method === 'POST' ? await readBody(req) : '';
    let method = '';
    let name: string | undefined;
    try {
      const message = JSON.parse(body) as { method?: string; params?: { name?: string } };
      method = message.method ?? '';
      name = message.params?.name;
    } catch {
      // GET or an unreadable body: the base scopes apply.
    }
    const needed = this.options.scopesFor(method, name);
    const challenge = (status: number, extra: string) => {
      const header = `Bearer ${extra}resource_metadata="${metadataUrl}", scope="${needed.join(' ')}"`;
      this.challenges.push({ status, header });
      res.writeHead(status, { 'www-authenticate': header, 'content-type': 'application/json' }).end(JSON.stringify({ error: status === 401 ? 'unauthorized' : 'insufficient_scope' }));
    };
    const auth = req.headers.authorization;
    if (auth === undefined || !auth.startsWith('Bearer ')) return challenge(401, '');
    const token = this.options.tokens(auth.slice(7));
    if (token === undefined || token.expiresAt <= Date.now() || token.resource !== this.url) return challenge(401, 'error="invalid_token", ');
    if (!needed.every((s) => token.scopes.includes(s))) return challenge(403, 'error="insufficient_scope", ');
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'authorization', 'content-length', 'connection'].includes(k)) headers.set(k, v);
    const upstream = await fetch(this.options.upstream, { method: req.method ?? 'GET', headers, ...(req.method === 'POST' ? { body } : {}) });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) out[k] = v;
    });
    res.writeHead(upstream.status, out);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** A node:http server on a free loopback port. */
export async function listenLocal(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

/** Close, cutting open connections (a client's keep-alive must not hold the test up). */
export async function stopLocal(server: Server | undefined): Promise<void> {
  if (server === undefined) return; // never started
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
