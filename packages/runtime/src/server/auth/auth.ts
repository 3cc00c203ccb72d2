// The resource-server side of MCP authorization (2026-07-28, OAuth 2.1) for the Streamable HTTP face:
// Protected Resource Metadata (RFC 9728), the bearer gate on every request (401 challenges), and the
// per-tool/resource/prompt scope check (403 insufficient_scope) before any handler runs. Token checks
// are a pluggable TokenVerifier; the default verifies JWT access tokens (jwt-verifier.ts). The refusals
// are in challenges.ts, the metadata document in resource-metadata.ts, per-item scopes in item-scopes.ts.
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { AuthSpec, ServerDefinition } from '../core/definition.js';
import type { AuthPrincipal } from '../core/principal.js';
import { challenges, type Challenges } from './challenges.js';
import { itemScopes, missingScopes } from './item-scopes.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { metadataResponse } from './resource-metadata.js';
import { AuthUnavailableError, InvalidTokenError, type AuthOptions, type TokenVerifier } from './verifier.js';

export { AuthUnavailableError, InvalidTokenError, missingScopes, type AuthOptions, type AuthPrincipal, type TokenVerifier };

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

/** `endpointPath` (set by `listen`): the MCP endpoint's path; without it the request's own path is the endpoint. */
export function createAuthGate(def: ServerDefinition, spec: AuthSpec, options: AuthOptions, endpointPath: string | undefined): AuthGate {
  const configured = options.resource ?? spec.resource;
  const issuers = options.authorizationServers ?? spec.authorizationServers;
  const verifier = options.verifier ?? createJwtVerifier(issuers, options);
  const declared = Object.keys(spec.scopes);
  const required = spec.requiredScopes;
  // What a client should ask for first: the scopes every request needs, else all the server knows.
  const refuse = challenges(required.length > 0 ? required : declared);
  const items = itemScopes(def);
  /** The AuthInfo built for each remembered principal (the SDK and our dispatch only read it). */
  const admitted = new WeakMap<AuthPrincipal, Authenticated>();
  const resourceFor = (url: URL): string => (configured !== undefined ? configured : `${url.origin}${endpointPath ?? url.pathname}`);

  async function authenticateHeader(header: string | null, url: URL): Promise<Authenticated | Response> {
    const resource = resourceFor(url);
    const token = bearerToken(header, resource, refuse);
    if (token instanceof Response) return token;
    let principal: AuthPrincipal;
    try {
      principal = await verifier.verify(token, { resource });
    } catch (e) {
      if (e instanceof InvalidTokenError) return refuse.invalid(resource, e.message);
      options.onError?.(e);
      return refuse.unavailable();
    }
    if (principal.expiresAt !== undefined && principal.expiresAt + (options.clockToleranceSec ?? 30) < Date.now() / 1000) return refuse.invalid(resource, 'Token has expired');
    if (missingScopes(required, principal.scopes).length > 0) return refuse.insufficient(resource, required);
    // A token the verifier remembers comes back as the same (frozen) principal: its AuthInfo is reused too.
    const known = admitted.get(principal);
    if (known !== undefined && known.resource === resource && known.authInfo.token === token) return known;
    const authInfo: AuthInfo = Object.freeze({
      token,
      clientId: principal.clientId ?? '',
      scopes: Object.freeze([...principal.scopes]) as string[],
      ...(principal.expiresAt !== undefined ? { expiresAt: principal.expiresAt } : {}),
      resource: new URL(resource),
      resourceMetadataUrl: refuse.metadataUrl(resource),
      extra: Object.freeze({ principal }),
    });
    const verified = { principal, authInfo, resource };
    if (Object.isFrozen(principal)) admitted.set(principal, verified);
    return verified;
  }

  return {
    metadata: (request) => metadataResponse(request, { configured, issuers, declared, spec, endpointPath }),
    authenticate: (request) => authenticateHeader(request.headers.get('authorization'), new URL(request.url)),
    authenticateHeader,
    checkScopes(body, principal, resource) {
      const needed = items.unmet(body, principal);
      return needed === undefined ? undefined : refuse.insufficient(resource, union(required, needed));
    },
    perItemScopes: items.perItemScopes,
    ready: async () => (verifier.ready === undefined ? true : verifier.ready()),
  };
}

/** The one bearer token of an Authorization header, or the refusal of a header that carries none or two. */
function bearerToken(header: string | null, resource: string, refuse: Challenges): string | Response {
  if (header === null || header.trim() === '') return refuse.unauthenticated(resource);
  const match = /^(\S+)(?: +(.*))?$/.exec(header.trim());
  if (match === null || match[1]!.toLowerCase() !== 'bearer') return refuse.unauthenticated(resource); // another scheme: no bearer credentials
  const token = (match[2] ?? '').trim();
  if (token === '') return refuse.unauthenticated(resource);
  // Two credentials (`Bearer a b`, or two Authorization lines joined by a comma) are ambiguous: a
  // malformed request, RFC 6750 §3.1 invalid_request → 400, with a challenge like every refusal (§3).
  if (/[\s,]/.test(token)) return refuse.malformed(resource, 'Malformed Authorization header: exactly one bearer token is expected (one Authorization line, no spaces)');
  // One value outside token68 cannot be a token this server issued: invalid_token → 401 (MCP authorization).
  // Length is not refused here: the HTTP face bounds the whole header block (431 past maxHeaderBytes).
  if (!TOKEN68.test(token)) return refuse.invalid(resource, 'The bearer token is not a token68 value');
  return token;
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
