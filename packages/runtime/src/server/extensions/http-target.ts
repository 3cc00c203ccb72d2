// Where node:http sends a proxied request (scheme, host, port, request target), as urlToHttpOptions(new URL(url))
// gives it, without parsing every URL: a URL parse and urlToHttpOptions cost ~9 µs a call at concurrency 1,
// and a proxied URL is nearly always the same origin and a path the URL parser leaves as it is.

export interface Target {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  readonly path: string;
  readonly auth?: string;
}

/**
 * A path and query the WHATWG URL parser keeps byte for byte (special schemes): no dot segments (no `.`
 * in the path, no `%2e`), nothing it percent-encodes or drops (space, quotes, `<>`, `#`, `\`, controls,
 * non-ASCII), no empty query. What encodeURIComponent and URLSearchParams write always passes, bar dots.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@/%]*(?:\?[A-Za-z0-9\-_~!$&()*+,;=:@/%?.]+)?$/;
const DOT = /%2e/i;

/** Origins (`http://host:port`) whose parse is their own text: the request target can be appended as is. */
const origins = new Map<string, Omit<Target, 'path'> | null>();
const MAX_ORIGINS = 64;

export function targetOf(url: string | URL): Target {
  if (typeof url === 'string') {
    const slash = url.indexOf('/', url.indexOf('//') + 2);
    const rest = slash < 0 ? '' : url.slice(slash);
    if (slash > 0 && PLAIN_TARGET.test(rest) && !DOT.test(rest)) {
      const origin = url.slice(0, slash);
      let known = origins.get(origin);
      if (known === undefined) {
        known = plainOrigin(origin);
        if (origins.size < MAX_ORIGINS) origins.set(origin, known);
      }
      if (known !== null) return { ...known, path: rest };
    }
  }
  return fromUrl(typeof url === 'string' ? new URL(url) : url);
}

/** The origin's parts when `origin/` parses back to itself (lower-case, no default port, no credentials), else null. */
function plainOrigin(origin: string): Omit<Target, 'path'> | null {
  let parsed: URL;
  try {
    parsed = new URL(`${origin}/`);
  } catch {
    return null;
  }
  if (parsed.href !== `${origin}/` || parsed.username !== '' || parsed.password !== '') return null;
  const { path: _path, ...rest } = fromUrl(parsed);
  return rest;
}

/** node's urlToHttpOptions, the fields node:http reads. */
function fromUrl(url: URL): Target {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const auth = url.username !== '' || url.password !== '' ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  return {
    protocol: url.protocol,
    hostname,
    ...(url.port !== '' ? { port: Number(url.port) } : {}),
    path: `${url.pathname}${url.search}`,
    ...(auth !== undefined ? { auth } : {}),
  };
}
