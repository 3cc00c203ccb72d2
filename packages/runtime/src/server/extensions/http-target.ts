// Where node:http sends a proxied request (scheme, host, port, request target), as urlToHttpOptions(new URL(url))
// gives it, without parsing every URL: a URL parse and urlToHttpOptions cost ~9 µs a call at concurrency 1,
// and a proxied URL is nearly always the same origin and a path the URL parser leaves as it is.

export interface Target {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number | undefined;
  readonly path: string;
  readonly auth?: string | undefined;
}

/**
 * A path and query the WHATWG URL parser keeps byte for byte (special schemes): no dot segments (no `.`
 * in the path, no `%2e`), nothing it percent-encodes or drops (space, quotes, `<>`, `#`, `\`, controls,
 * non-ASCII), no empty query. What encodeURIComponent and URLSearchParams write always passes, bar dots.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@/%]*(?:\?[A-Za-z0-9\-_~!$&()*+,;=:@/%?.]+)?$/;
const DOT = /%2e/i;

type Origin = Omit<Target, 'path'>;

/** Origins (`http://host:port`) whose parse is their own text: the request target can be appended as is. */
const origins = new Map<string, Origin | null>();
const MAX_ORIGINS = 64;
/** The origin of the previous call (a proxy nearly always calls one): no slice, no hashing. */
let last: { readonly origin: string; readonly parts: Origin } | undefined;

export function targetOf(url: string | URL): Target {
  if (typeof url !== 'string') return fromUrl(url);
  const seen = last !== undefined && url.startsWith(last.origin) && url.charCodeAt(last.origin.length) === 47 ? last : undefined;
  const slash = seen !== undefined ? seen.origin.length : url.indexOf('/', url.indexOf('//') + 2);
  if (slash > 0) {
    const rest = url.slice(slash);
    if (PLAIN_TARGET.test(rest) && !DOT.test(rest)) {
      const parts = seen !== undefined ? seen.parts : originParts(url.slice(0, slash));
      if (parts !== null) return { protocol: parts.protocol, hostname: parts.hostname, port: parts.port, path: rest, auth: parts.auth };
    }
  }
  return fromUrl(new URL(url));
}

function originParts(origin: string): Origin | null {
  let parts = origins.get(origin);
  if (parts === undefined) {
    parts = plainOrigin(origin);
    if (origins.size < MAX_ORIGINS) origins.set(origin, parts);
  }
  if (parts !== null) last = { origin, parts };
  return parts;
}

/** The origin's parts when `origin/` parses back to itself (lower-case, no default port, no credentials), else null. */
function plainOrigin(origin: string): Origin | null {
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
