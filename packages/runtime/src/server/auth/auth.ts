// The resource-server side of MCP authorization (2026-07-28, OAuth 2.1) for the Streamable HTTP face:
// Protected Resource Metadata (RFC 9728), the bearer gate on every request (401 challenges), and the
// per-tool/resource/prompt scope check (403 insufficient_scope) before any handler runs. Token checks
// are a pluggable TokenVerifier; the default verifies JWT access tokens (jwt-verifier.ts).
import { bearerAuthChallengeResponse, getOAuthProtectedResourceMetadataUrl, OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { matchUriTemplate } from '../../shared/uri-template.js';
import type { AuthSpec, ServerDefinition } from '../core/definition.js';
import type { AuthPrincipal } from '../core/principal.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { AuthUnavailableError, InvalidTokenError, type AuthOptions, type TokenVerifier } from './verifier.js';

export { AuthUnavailableError, InvalidTokenError, type AuthOptions, type AuthPrincipal, type TokenVerifier };

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** A request's verified caller: who, the AuthInfo the SDK hands handlers, and the resource it was verified for. */
export interface Authenticated {
  readonly principal: AuthPrincipal;
  readonly authInfo: AuthInfo;
  readonly resource: string;
}

export interface AuthGate {
  /** The Protected Resource Metadata answer when `request` asks for it, else undefined. */
  metadata(request: Request): Response | undefined;
  /** The verified caller, or the 400/401/403/503 answer to send instead. */
  authenticate(request: Request): Promise<Authenticated | Response>;
  /**
   * The same, from the Authorization header and the request's URL alone (the node:http fast path has no
   * Web Request): `authenticate(request)` is this with `request.headers.get('authorization')`.
   */
  authenticateHeader(authorization: string | null, url: URL): Promise<Authenticated | Response>;
  /** Whether scopes beyond the required ones are declared per item (the body must be read to check them). */
  readonly perItemScopes: boolean;
  /** 403 when the parsed JSON-RPC body asks for something the caller's scopes do not cover. */
  checkScopes(body: unknown, principal: AuthPrincipal, resource: string): Response | undefined;
  /** Readiness: the verifier can check tokens (the authorization server was discovered). */
  ready(): Promise<boolean>;
}

/** `ctx.auth` for handlers, from what the gate handed the SDK. */
export function principalOf(authInfo: AuthInfo | undefined): AuthPrincipal | undefined {
  return authInfo?.extra?.principal as AuthPrincipal | undefined;
}

/** Who a principal is, as one string ('' without one): binds requestState and owns tasks. */
export function principalKeyOf(p: AuthPrincipal | undefined): string {
  return p === undefined ? '' : `${p.subject ?? ''}\u0000${p.clientId ?? ''}`;
}

/** Scopes a token lacks among `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((s) => !granted.includes(s));
}

/** `endpointPath` (set by `listen`): the MCP endpoint's path; without it the request's own path is the endpoint. */
export function createAuthGate(def: ServerDefinition, spec: AuthSpec, options: AuthOptions, endpointPath: string | undefined): AuthGate {
  const configured = options.resource ?? spec.resource;
  const issuers = options.authorizationServers ?? spec.authorizationServers;
  const verifier = options.verifier ?? createJwtVerifier(issuers, options);
  const declared = Object.keys(spec.scopes);
  const required = spec.requiredScopes;
  // What a client should ask for first: the scopes every request needs, else all the server knows.
  const challengeScopes = required.length > 0 ? required : declared;
  const tools = new Map(def.tools.map((t) => [t.definition.name, t.scopes ?? []]));
  const resources = new Map(def.resources.map((r) => [r.definition.uri, r.scopes ?? []]));
  const templates = def.resourceTemplates.filter((t) => (t.scopes ?? []).length > 0).map((t) => ({ template: t.definition.uriTemplate, scopes: t.scopes ?? [] }));
  const prompts = new Map(def.prompts.map((p) => [p.definition.name, p.scopes ?? []]));
  const perItemScopes = [...tools.values(), ...resources.values(), ...templates.map((t) => t.scopes), ...prompts.values()].some((s) => s.length > 0);

  const resourceFor = (url: URL): string => (configured !== undefined ? configured : `${url.origin}${endpointPath ?? url.pathname}`);
  const metadataUrl = (resource: string) => getOAuthProtectedResourceMetadataUrl(new URL(resource));

  const unauthenticated = (resource: string): Response => {
    // RFC 6750 §3.1: no error code when the request carried no credentials at all.
    const params = [`resource_metadata="${quoted(metadataUrl(resource))}"`, ...(challengeScopes.length > 0 ? [`scope="${quoted(challengeScopes.join(' '))}"`] : [])];
    return Response.json({ error: 'unauthorized', error_description: 'Authorization required' }, { status: 401, headers: { 'www-authenticate': `Bearer ${params.join(', ')}` } });
  };
  const invalid = (resource: string, description: string): Response =>
    bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, description), { requiredScopes: [...challengeScopes], resourceMetadataUrl: metadataUrl(resource) });
  const malformed = (resource: string, description: string): Response => {
    const challenge = `Bearer error="invalid_request", error_description="${quoted(description)}", resource_metadata="${quoted(metadataUrl(resource))}"`;
    return Response.json({ error: 'invalid_request', error_description: description }, { status: 400, headers: { 'www-authenticate': challenge } });
  };
  const insufficient = (resource: string, scopes: readonly string[]): Response =>
    bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, 'The token lacks a scope this request needs'), { requiredScopes: [...scopes], resourceMetadataUrl: metadataUrl(resource) });

  function metadata(request: Request): Response | undefined {
    const url = new URL(request.url);
    if (url.pathname !== WELL_KNOWN && !url.pathname.startsWith(`${WELL_KNOWN}/`)) return undefined;
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': 'mcp-protocol-version' };
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, OPTIONS' } });
    const suffix = url.pathname.slice(WELL_KNOWN.length);
    // RFC 9728 §3.1: the metadata of `https://host/mcp` is at `/.well-known/oauth-protected-resource/mcp`.
    const resource = configured ?? `${url.origin}${suffix === '' ? (endpointPath ?? '/mcp') : suffix}`;
    if (configured !== undefined && suffix !== '' && suffix !== new URL(configured).pathname.replace(/\/$/, '')) {
      return Response.json({ error: 'not_found' }, { status: 404, headers: cors });
    }
    const document = {
      resource,
      authorization_servers: [...issuers],
      ...(declared.length > 0 ? { scopes_supported: declared } : {}),
      bearer_methods_supported: ['header'],
      ...(spec.resourceName !== undefined ? { resource_name: spec.resourceName } : {}),
      ...(spec.documentation !== undefined ? { resource_documentation: spec.documentation } : {}),
    };
    return Response.json(document, { headers: { ...cors, 'cache-control': 'max-age=300' } });
  }

  function authenticate(request: Request): Promise<Authenticated | Response> {
    return authenticateHeader(request.headers.get('authorization'), new URL(request.url));
  }

  async function authenticateHeader(header: string | null, url: URL): Promise<Authenticated | Response> {
    const resource = resourceFor(url);
    if (header === null || header.trim() === '') return unauthenticated(resource);
    const match = /^(\S+)(?: +(.*))?$/.exec(header.trim());
    if (match === null || match[1]!.toLowerCase() !== 'bearer') return unauthenticated(resource); // another scheme: no bearer credentials
    const token = (match[2] ?? '').trim();
    if (token === '') return unauthenticated(resource);
    // Two credentials (`Bearer a b`, or two Authorization lines joined by a comma) are ambiguous: a
    // malformed request, RFC 6750 §3.1 invalid_request → 400, with a challenge like every refusal (§3).
    if (/[\s,]/.test(token)) return malformed(resource, 'Malformed Authorization header: exactly one bearer token is expected (one Authorization line, no spaces)');
    // One value outside token68 cannot be a token this server issued: invalid_token → 401 (MCP authorization).
    // Length is not refused here: the HTTP face bounds the whole header block (431 past maxHeaderBytes).
    if (!TOKEN68.test(token)) return invalid(resource, 'The bearer token is not a token68 value');
    let principal: AuthPrincipal;
    try {
      principal = await verifier.verify(token, { resource });
    } catch (e) {
      if (e instanceof InvalidTokenError) return invalid(resource, e.message);
      options.onError?.(e);
      return Response.json({ error: 'temporarily_unavailable', error_description: 'The authorization server cannot be reached; try again later' }, { status: 503, headers: { 'retry-after': '5' } });
    }
    if (principal.expiresAt !== undefined && principal.expiresAt + (options.clockToleranceSec ?? 30) < Date.now() / 1000) return invalid(resource, 'Token has expired');
    const lacking = missingScopes(required, principal.scopes);
    if (lacking.length > 0) return insufficient(resource, required);
    const authInfo: AuthInfo = {
      token,
      clientId: principal.clientId ?? '',
      scopes: [...principal.scopes],
      ...(principal.expiresAt !== undefined ? { expiresAt: principal.expiresAt } : {}),
      resource: new URL(resource),
      resourceMetadataUrl: metadataUrl(resource),
      extra: { principal },
    };
    return { principal, authInfo, resource };
  }

  /** Every scope the operation needs (listed whole in the challenge), or [] when it needs none beyond the required. */
  function neededFor(message: unknown): readonly string[] {
    if (typeof message !== 'object' || message === null) return [];
    const { method, params } = message as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
    if (method === 'tools/call' && typeof params?.name === 'string') return tools.get(params.name) ?? [];
    if (method === 'prompts/get' && typeof params?.name === 'string') return prompts.get(params.name) ?? [];
    if (method === 'resources/read' && typeof params?.uri === 'string') {
      const fixed = resources.get(params.uri);
      if (fixed !== undefined) return fixed;
      const uri = params.uri;
      return templates.find((t) => matchUriTemplate(t.template, uri) !== null)?.scopes ?? [];
    }
    return [];
  }

  function checkScopes(body: unknown, principal: AuthPrincipal, resource: string): Response | undefined {
    for (const message of Array.isArray(body) ? body : [body]) {
      const needed = neededFor(message);
      if (needed.length === 0) continue;
      if (missingScopes(needed, principal.scopes).length > 0) return insufficient(resource, union(required, needed));
    }
    return undefined;
  }

  const ready = async () => (verifier.ready === undefined ? true : verifier.ready());
  return { metadata, authenticate, authenticateHeader, checkScopes, perItemScopes, ready };
}

const vouched = new WeakMap<Request, Authenticated>();

/** The node:http face verified this Request's token already (fast-path.ts): the SDK path uses that, not a second verification. */
export function vouchFor(request: Request, auth: Authenticated): void {
  vouched.set(request, auth);
}

/** What vouchFor recorded for this very Request object (never for a copy of it). */
export function vouchedFor(request: Request): Authenticated | undefined {
  return vouched.get(request);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** RFC 9110 quoted-string content: escape `\` and `"`, drop what a header cannot carry. */
function quoted(value: string): string {
  return value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7E]/g, ' ');
}
