// What the bearer gate (auth.ts) and the default JWT verifier (jwt-verifier.ts) share: the verifier's
// contract and its two failures. Its own file, so the two import it and not each other.
import type { AuthPrincipal } from '../core/principal.js';

/** Checks one bearer token. Throw InvalidTokenError to refuse it (401); anything else thrown is a 503. */
export interface TokenVerifier {
  /**
   * `resource` is this server's resource identifier: a token meant for another audience MUST be refused
   * (RFC 8707; an introspection verifier compares the introspected `aud`).
   */
  verify(token: string, context: { readonly resource: string }): Promise<AuthPrincipal>;
  /**
   * Whether the verifier can check tokens now (the readiness probe asks; default: always). The JWT
   * verifier is ready once every issuer's metadata and key set location were discovered.
   */
  ready?(): Promise<boolean>;
}

/** The token is not acceptable here: 401 `invalid_token` (the message goes into `error_description`). */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** The authorization server (metadata, JWKS, introspection) could not be reached: 503, retry later. */
export class AuthUnavailableError extends Error {
  override readonly name = 'AuthUnavailableError';
}

export interface AuthOptions {
  /**
   * This server's resource identifier (the audience tokens must carry). Default: the spec's
   * `auth.resource`, else the URL of the MCP endpoint as requested (origin + endpoint path). Set it
   * behind a proxy or TLS terminator, where the request URL is not the public one.
   */
  readonly resource?: string;
  /** Replaces the spec's `authorizationServers` (issuers differ per environment: dev, staging, production). */
  readonly authorizationServers?: readonly string[];
  /** Replaces the default JWT verifier (e.g. RFC 7662 introspection, or an API-key check). */
  readonly verifier?: TokenVerifier;
  /** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. Default 30. */
  readonly clockToleranceSec?: number;
  /** Least time between two JWKS downloads caused by an unknown `kid`, in ms (per issuer). Default 5000. */
  readonly jwksCooldownMs?: number;
  /**
   * Verified JWT access tokens the default verifier remembers, so a client reusing its token is verified
   * once: each entry holds until the token's `exp`, only for the resource it was verified for, and only
   * while the issuer's key set is the one it was verified with (token-cache.ts). Refusals are never kept.
   * Default 1024; 0 verifies every request in full. A custom `verifier` is not cached.
   */
  readonly tokenCacheSize?: number;
  /** `typ` header values accepted on JWT access tokens. Default `['at+jwt']` (RFC 9068). */
  readonly jwtTypes?: readonly string[];
  /** Fetch used for authorization-server metadata and JWKS (tests, proxies). Default: global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * Where the default verifier writes one line each time an authorization server becomes unreachable
   * and reachable again (no line per request). Default: stderr.
   */
  readonly log?: (line: string) => void;
  /** Called with verifier failures that become 503 (the client sees no detail). */
  readonly onError?: (error: unknown) => void;
}

