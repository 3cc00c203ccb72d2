// OAuth 2 client credentials (RFC 6749 §4.4) for the upstream: the token URL comes from the description's
// securitySchemes, the client id and secret from this process's environment. One token per client and
// token URL is cached until shortly before it expires; concurrent calls share one token request; a 401
// from the upstream drops it so the next call fetches a fresh one.
import type { HttpAuth } from './http-types.js';

type OAuthScheme = Extract<HttpAuth, { type: 'oauth2' }>;
type Env = Readonly<Record<string, string | undefined>>;

interface Cached {
  readonly token: Promise<string>;
  expiresAt: number;
}

/** Lifetime left unused (at most half of it), so a token does not expire on its way to the upstream. */
const SKEW_MS = 30_000;

export class ClientCredentials {
  readonly #cache = new Map<string, Cached>();

  constructor(private readonly fetchFn: typeof fetch = fetch) {}

  /** The access token for a scheme: client credentials when id and secret are set, else the static `<ENV>` token. */
  async token(scheme: OAuthScheme, env: Env, signal?: AbortSignal): Promise<string | undefined> {
    const id = env[`${scheme.env}_CLIENT_ID`];
    const secret = env[`${scheme.env}_CLIENT_SECRET`];
    if (id === undefined || id === '' || secret === undefined) return env[scheme.env];
    const url = env[`${scheme.env}_TOKEN_URL`] ?? scheme.tokenUrl;
    const key = `${url}\n${id}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined && hit.expiresAt > Date.now()) return hit.token;
    const entry: Cached = { token: this.#request(url, id, secret, env[`${scheme.env}_SCOPE`], signal), expiresAt: Infinity };
    this.#cache.set(key, entry);
    entry.token.then(
      () => undefined,
      () => this.#cache.get(key) === entry && this.#cache.delete(key), // a failed request is not cached
    );
    return entry.token;
  }

  /** The upstream refused the token (401): the next call fetches a new one. */
  forget(scheme: OAuthScheme, env: Env): void {
    const url = env[`${scheme.env}_TOKEN_URL`] ?? scheme.tokenUrl;
    this.#cache.delete(`${url}\n${env[`${scheme.env}_CLIENT_ID`] ?? ''}`);
  }

  async #request(url: string, id: string, secret: string, scope: string | undefined, signal?: AbortSignal): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope !== undefined && scope !== '' ? { scope } : {}) });
    // client_secret_basic: the method every authorization server must support (RFC 6749 §2.3.1).
    const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
    const response = await this.fetchFn(url, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      // The client secret goes to the token URL and nowhere else: a redirect is an answer, not followed.
      redirect: 'manual',
      signal: signal === undefined ? AbortSignal.timeout(30_000) : AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    if (!response.ok || typeof body.access_token !== 'string') throw new Error(`token endpoint answered ${response.status}${typeof body.error === 'string' ? ` (${body.error})` : ''}`);
    const key = `${url}\n${id}`;
    const entry = this.#cache.get(key);
    // No expires_in: kept for an hour, and a 401 still replaces it.
    const life = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000;
    if (entry !== undefined) entry.expiresAt = Date.now() + Math.max(life - SKEW_MS, life / 2);
    return body.access_token;
  }
}
