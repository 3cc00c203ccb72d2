// A bounded cache of verified JWT access tokens, for the default verifier (jwt-verifier.ts): a client that
// reuses its token pays jose's checks (RS256 through WebCrypto, ~130–200 µs of CPU and a thread-pool hop
// per request) once, not on every request.
//
// Why an entry may stand in for a verification — each thing a verification found that could turn out
// differently later is checked again on every hit, or ends the entry:
// - The key is the exact token string: any other bytes (claims, header, signature) are another entry.
// - Expiry: an entry is used only while the clock is before the token's `exp` (no clock tolerance); from
//   then on the token is verified in full again, where jose applies the tolerance as it always did.
//   `nbf` and `iat` were satisfied when it was verified, and time only makes them truer.
// - Audience: an entry holds the resource it was verified for; a request for another resource (a server
//   whose resource is derived from the request URL) verifies the token again against that one.
// - Keys: an entry remembers the issuer's key set as it was (jose's reload stamp `uat`) and is dropped
//   once that set was downloaded again (a rotation that withdrew the signing key is then seen: the token
//   no longer verifies) or is older than KEY_SET_MAX_AGE_MS, when jose itself would download it again.
// - Refusals (401, 503) are never cached: a bad token is checked in full each time, an outage retried.
// - Bounded: at most `size` entries, the oldest dropped first; tokens over MAX_CACHED_TOKEN_CHARS are
//   not kept (at most ~8 MB of token text for the default size).
// - The cached principal is frozen, so a handler cannot change what the next request with the token sees.
// What the cache does not change: a JWT cannot be revoked before its `exp` without introspection, cached or
// not (the verifier never asks the authorization server about a single token).
import type { AuthPrincipal } from '../core/principal.js';

/** jose's key set age limit (`cacheMaxAge`), set explicitly so the cache and jose agree. */
export const KEY_SET_MAX_AGE_MS = 600_000;
/** Default number of verified tokens kept (AuthOptions.tokenCacheSize). */
export const DEFAULT_TOKEN_CACHE_SIZE = 1024;
const MAX_CACHED_TOKEN_CHARS = 8192;

/** The object jose stamps on each key set download (its `jwksCache` option): `uat` is the time of the last one. */
export interface KeySetStamp {
  uat?: number;
}

interface Entry {
  readonly resource: string;
  readonly principal: AuthPrincipal;
  /** The token's `exp`, in ms. */
  readonly expiresAtMs: number;
  readonly keySet: KeySetStamp;
  /** `keySet.uat` before the token was verified: the entry holds only while the same download is in use. */
  readonly keySetUat: number;
}

export interface TokenCache {
  /** The principal verified for this exact token and resource, while nothing it relied on has changed. */
  get(token: string, resource: string, nowMs: number): AuthPrincipal | undefined;
  /**
   * Remembers a verified token. `keySetUat` is `keySet.uat` read BEFORE verifying: if jose reloaded the
   * set meanwhile, the entry is already stale (one more verification, never one too few).
   */
  set(token: string, resource: string, principal: AuthPrincipal, keySet: KeySetStamp, keySetUat: number | undefined): void;
  readonly size: number;
}

export function createTokenCache(size: number): TokenCache {
  const entries = new Map<string, Entry>();
  return {
    get(token, resource, nowMs) {
      const e = entries.get(token);
      if (e === undefined) return undefined;
      if (nowMs < e.expiresAtMs && e.resource === resource && e.keySet.uat === e.keySetUat && nowMs < e.keySetUat + KEY_SET_MAX_AGE_MS) return e.principal;
      // Expired, or its key set changed or aged: verified in full again (and then replaced).
      if (e.resource === resource || nowMs >= e.expiresAtMs) entries.delete(token);
      return undefined;
    },
    set(token, resource, principal, keySet, keySetUat) {
      if (size <= 0 || token.length > MAX_CACHED_TOKEN_CHARS || keySetUat === undefined || principal.expiresAt === undefined) return;
      entries.delete(token);
      while (entries.size >= size) entries.delete(entries.keys().next().value!);
      entries.set(token, { resource, principal: deepFreeze(principal), expiresAtMs: principal.expiresAt * 1000, keySet, keySetUat });
    },
    get size() {
      return entries.size;
    },
  };
}

/** Freezes a principal and its claims (JSON values: plain objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
