// The default TokenVerifier: JWT access tokens (RFC 9068) checked with jose against the JWKS of the
// authorization server that issued them, found through its metadata (RFC 8414, then OpenID discovery).
// Metadata and keys are cached; an unknown `kid` refetches the JWKS (at most once per cooldown).
// jose (some 45 modules) loads on the first token, not at start: a server without authorization never
// pays for it, and one with it starts as fast (cold start, bench/cold-start.mjs). A token verified once is
// remembered until its expiry or the next key set download (token-cache.ts says why that is safe).
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import { logText, type LogLevel } from '../core/log.js';
import type { AuthPrincipal } from '../core/principal.js';
import { createTokenCache, DEFAULT_TOKEN_CACHE_SIZE, KEY_SET_MAX_AGE_MS, type KeySetStamp } from './token-cache.js';
import { AuthUnavailableError, InvalidTokenError, type AuthOptions, type TokenVerifier } from './verifier.js';

/** Asymmetric algorithms only: `none` and HMAC (a shared secret the AS would have to give us) never verify. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

type Jose = typeof import('./jose-calls.js');
let joseModule: Jose | undefined;
let joseLoading: Promise<Jose> | undefined;
async function loadJose(): Promise<Jose> {
  joseModule ??= await (joseLoading ??= import('./jose-calls.js'));
  return joseModule;
}

/** jose errors that mean "this token is bad" (401); everything else is the AS being unreachable (503). */
function isTokenError({ errors }: Jose, e: unknown): boolean {
  return [
    errors.JWTExpired,
    errors.JWTClaimValidationFailed,
    errors.JWTInvalid,
    errors.JWSInvalid,
    errors.JWSSignatureVerificationFailed,
    errors.JOSEAlgNotAllowed,
    errors.JOSENotSupported,
    errors.JWKSNoMatchingKey,
    errors.JWKSMultipleMatchingKeys,
    errors.JWKInvalid,
  ].some((E) => e instanceof E);
}

interface Issuer {
  keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  pending: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  /** Whether its last metadata or JWKS download failed: a log line is written only when this changes. */
  down: boolean;
  fetch: typeof fetch;
  /** jose stamps each download of the key set here (`uat`): cached tokens hold only while it is unchanged. */
  readonly keySet: KeySetStamp;
}

/** Where an issuer's reachability changes are written. */
type IssuerLog = (level: LogLevel, msg: string) => void;

/**
 * `fetchFn` for one issuer, logging one line per state change (reachable → unreachable → reachable), so an
 * outage that turns requests into 503 is visible in the server's log without a line per request.
 */
function watchedFetch(issuer: string, s: Pick<Issuer, 'down'>, fetchFn: typeof fetch, log: IssuerLog): typeof fetch {
  const report = (problem: string | undefined) => {
    if ((problem !== undefined) === s.down) return;
    s.down = problem !== undefined;
    if (problem !== undefined) log('warn', `authorization server ${issuer} unreachable (${problem}); tokens needing its keys get 503 until it is back`);
    else log('info', `authorization server ${issuer} reachable again`);
  };
  return async (input, init) => {
    try {
      const response = await fetchFn(input, init);
      report(response.status >= 500 ? `HTTP ${response.status}` : undefined);
      return response;
    } catch (e) {
      report(e instanceof Error ? e.message : String(e));
      throw e;
    }
  };
}

/** Per issuer: its key set (once discovered) and a fetch that logs its reachability changes. */
function issuerStates(issuers: readonly string[], fetchFn: typeof fetch, log: IssuerLog): Map<string, Issuer> {
  return new Map(
    issuers.map((i) => {
      const s: Issuer = { keys: undefined, pending: undefined, down: false, fetch: fetchFn, keySet: {} };
      s.fetch = watchedFetch(i, s, fetchFn, log);
      return [i, s];
    }),
  );
}

export function createJwtVerifier(issuers: readonly string[], options: AuthOptions = {}): TokenVerifier {
  const fetchFn = options.fetch ?? fetch;
  const tolerance = options.clockToleranceSec ?? 30;
  const types = options.jwtTypes ?? ['at+jwt'];
  // The runtime's log (MCPGEN_LOG_FORMAT) by default; a `log` of the caller's gets the line as it always has.
  const given = options.log;
  const state = issuerStates(issuers, fetchFn, given === undefined ? (level, msg) => logText(level, msg, 'mcpgen: ', { component: 'auth' }) : (_level, msg) => given(`mcpgen: ${msg}`));
  const cache = createTokenCache(options.tokenCacheSize ?? DEFAULT_TOKEN_CACHE_SIZE);

  /** The issuer's key set, discovering its jwks_uri on first use (a failed discovery is retried next time). */
  async function keysOf(issuer: string, { createRemoteJWKSet, customFetch, jwksCache }: Jose) {
    const s = state.get(issuer)!;
    if (s.keys !== undefined) return s.keys;
    s.pending ??= discoverJwksUri(issuer, s.fetch).then(
      (uri) => {
        // An unknown kid (the AS rotated its key) refetches once the last fetch is 5 s old: new-key tokens
        // are accepted within ~5 s, and a flood of unknown kids still costs one download per 5 s per issuer.
        s.keys = createRemoteJWKSet(new URL(uri), {
          cooldownDuration: options.jwksCooldownMs ?? 5_000,
          timeoutDuration: 5000,
          cacheMaxAge: KEY_SET_MAX_AGE_MS,
          [customFetch]: s.fetch as never,
          [jwksCache]: s.keySet as never,
        });
        return s.keys;
      },
      (e: unknown) => {
        s.pending = undefined;
        throw e;
      },
    );
    return s.pending;
  }

  return {
    // Discovery is tried here too, so a probe makes the first one (and retries a failed one) before any token comes.
    async ready() {
      try {
        const jose = joseModule ?? (await loadJose());
        await Promise.all([...state.keys()].map((issuer) => keysOf(issuer, jose)));
        return true;
      } catch {
        return false;
      }
    },
    async verify(token, { resource }) {
      const known = cache.get(token, resource, Date.now());
      if (known !== undefined) return known;
      const jose = joseModule ?? (await loadJose());
      const iss = checkUnverified(jose, token, types, state);
      let keys: Awaited<ReturnType<typeof keysOf>>;
      try {
        keys = await keysOf(iss, jose);
      } catch (e) {
        throw new AuthUnavailableError(`authorization server ${iss} metadata: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      const keySet = state.get(iss)!.keySet;
      // Read before verifying: a download during the verification leaves the entry stale (see token-cache.ts).
      const keySetUat = keySet.uat;
      const principal = principalFromClaims(await verifySigned(jose, token, keys, iss, resource, tolerance));
      cache.set(token, resource, principal, keySet, keySetUat);
      return principal;
    },
  };
}

/** Header and issuer checks before any key is fetched; the issuer the token names (accepted here). */
function checkUnverified(jose: Jose, token: string, types: readonly string[], state: ReadonlyMap<string, Issuer>): string {
  let header: ReturnType<Jose['decodeProtectedHeader']>;
  let unverified: JWTPayload;
  try {
    header = jose.decodeProtectedHeader(token);
    unverified = jose.decodeJwt(token);
  } catch {
    throw new InvalidTokenError('Token is not a well-formed JWT');
  }
  if (typeof header.alg !== 'string' || !ALGORITHMS.includes(header.alg)) throw new InvalidTokenError('Token algorithm not accepted');
  if (typeof header.typ !== 'string' || !types.some((t) => normalizeTyp(t) === normalizeTyp(header.typ as string))) throw new InvalidTokenError('Token is not a JWT access token (typ)');
  const iss = unverified.iss;
  if (typeof iss !== 'string' || !state.has(iss)) throw new InvalidTokenError('Token issuer not accepted');
  return iss;
}

/** Signature, issuer, audience, `exp` (required), `nbf` and `iat` (not in the future): the verified claims. */
async function verifySigned(jose: Jose, token: string, keys: ReturnType<typeof createRemoteJWKSet>, iss: string, resource: string, tolerance: number): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(token, keys, { issuer: iss, audience: audiences(resource), algorithms: ALGORITHMS, clockTolerance: tolerance, requiredClaims: ['exp'] }));
  } catch (e) {
    if (isTokenError(jose, e)) throw new InvalidTokenError(describeJoseError(jose, e));
    throw new AuthUnavailableError(`authorization server ${iss} keys: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + tolerance) throw new InvalidTokenError('Token issued in the future');
  return payload;
}

/** RFC 9068 claims → the principal handlers see. */
export function principalFromClaims(payload: JWTPayload): AuthPrincipal {
  const scope = payload.scope ?? payload.scp;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : [];
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : undefined;
  return {
    subject: typeof payload.sub === 'string' ? payload.sub : undefined,
    clientId,
    scopes,
    claims: payload,
    expiresAt: typeof payload.exp === 'number' ? payload.exp : undefined,
  };
}

/** RFC 8414 §3 (path-inserted well-known), then OpenID Connect discovery; `issuer` must match exactly. */
export async function discoverJwksUri(issuer: string, fetchFn: typeof fetch): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const candidates = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`];
  let lastError: unknown;
  for (const candidate of candidates) {
    try {
      const response = await fetchFn(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
      if (!response.ok) {
        await response.body?.cancel();
        lastError = new Error(`${candidate} answered ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) throw new Error(`${candidate} names issuer ${JSON.stringify(metadata.issuer)}, expected ${JSON.stringify(issuer)}`);
      if (typeof metadata.jwks_uri !== 'string') throw new Error(`${candidate} has no jwks_uri`);
      return metadata.jwks_uri;
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** The resource with and without one trailing slash: clients differ on `https://host` vs `https://host/`. */
function audiences(resource: string): string[] {
  const bare = resource.replace(/\/$/, '');
  return [bare, `${bare}/`];
}

function normalizeTyp(value: string): string {
  const v = value.toLowerCase();
  return v.startsWith('application/') ? v.slice('application/'.length) : v;
}

function describeJoseError({ errors }: Jose, e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'Token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return 'Token was not issued for this resource';
    if (e.claim === 'nbf') return 'Token is not valid yet';
    return `Token claim "${e.claim}" is not acceptable`;
  }
  if (e instanceof errors.JWKSNoMatchingKey) return 'Token signing key is unknown';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'Token signature is invalid';
  return 'Token is invalid';
}

