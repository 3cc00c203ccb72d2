// Redirects as the Fetch standard follows them (http-node-send.ts and the fetch path share this), bar one
// thing the standard cannot know: it drops only `Authorization` on a redirect to another origin, while the
// proxy knows every header, cookie and query key its security schemes put a secret in (an API key in
// `X-Api-Key`, say) and drops those too, so no credential leaves the configured origin.

export const MAX_REDIRECTS = 20; // the Fetch standard's limit

/** Where one operation's configured schemes put their secrets (lower-case header names, query keys). */
export interface CredentialPlaces {
  readonly headers: readonly string[];
  readonly query: readonly string[];
}

/** Sent to the configured origin only, whatever the schemes: the caller's cookies and HTTP authorization. */
const ALWAYS = ['authorization', 'proxy-authorization', 'cookie'];

export function credentialPlaces(schemes: readonly ({ readonly type: string; readonly in?: string; readonly name?: string })[]): CredentialPlaces {
  const headers = new Set(ALWAYS);
  const query: string[] = [];
  for (const s of schemes) {
    if (s.type !== 'apiKey' || s.name === undefined) continue;
    if (s.in === 'header') headers.add(s.name.toLowerCase());
    else if (s.in === 'query') query.push(s.name);
  }
  return { headers: [...headers], query };
}

const NO_SCHEMES = credentialPlaces([]);

export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

export interface Hop<B> {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: B;
}

/**
 * Fetch's HTTP-redirect fetch: 303 (and 301/302 after a POST) become a bodiless GET; on another origin
 * (scheme, host or port) every credential place is emptied, including query keys the upstream copied
 * into its `Location`.
 */
export function nextHop<B>(previous: Hop<B>, status: number, url: URL, places: CredentialPlaces = NO_SCHEMES): Hop<B> {
  const toGet = (status === 303 && previous.method !== 'GET' && previous.method !== 'HEAD') || ((status === 301 || status === 302) && previous.method === 'POST');
  const headers = { ...previous.headers };
  if (toGet) for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) delete headers[h];
  if (url.origin !== previous.url.origin) {
    for (const h of places.headers) delete headers[h];
    for (const q of places.query) url.searchParams.delete(q);
  }
  return { method: toGet ? 'GET' : previous.method, url, headers, ...(toGet || previous.body === undefined ? {} : { body: previous.body }) };
}
