// CORS for browser-based MCP clients (issue 25 item 8). Only origins the operator lists are served:
// their preflights are answered before the bearer gate (a preflight carries no credentials), and their
// answers expose WWW-Authenticate (so a browser client can find the authorization server) and Mcp-*.
// Every other origin keeps the default refusal (403 from the Origin check, no Access-Control-* at all).

/** Request headers a browser client of the Streamable HTTP transport sends, besides every `Mcp-*` (MCP-Protocol-Version included). */
const ALLOWED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'last-event-id']);
const METHODS = 'POST, GET, DELETE, OPTIONS';

export interface Cors {
  /** The configured origin's preflight answer, or undefined (not a preflight, or an origin not listed). */
  preflight(request: Request): Response | undefined;
  /** Whether this request's Origin is listed (then the localhost-only Origin check does not apply). */
  allows(request: Request): boolean;
  /** The response with Access-Control-* added for a listed origin, else unchanged. */
  decorate(request: Request, response: Response): Response;
}

/** `undefined` when no origin is configured: nothing changes. */
export function createCors(origins: readonly string[] | undefined): Cors | undefined {
  if (origins === undefined || origins.length === 0) return undefined;
  const listed = new Set(origins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  const allows = (request: Request): boolean => {
    const origin = request.headers.get('origin');
    return origin !== null && listed.has(origin.toLowerCase());
  };
  return {
    allows,
    preflight(request) {
      if (request.method !== 'OPTIONS' || !allows(request) || !request.headers.has('access-control-request-method')) return undefined;
      const asked = (request.headers.get('access-control-request-headers') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
      const refused = asked.filter((h) => !ALLOWED_HEADERS.has(h) && !h.startsWith('mcp-'));
      // A header we do not serve: answer without Allow-Headers, so the browser refuses the call itself.
      const headers: Record<string, string> = {
        'access-control-allow-origin': request.headers.get('origin')!,
        'access-control-allow-methods': METHODS,
        'access-control-max-age': '600',
        vary: 'Origin',
        ...(refused.length === 0 && asked.length > 0 ? { 'access-control-allow-headers': asked.join(', ') } : {}),
      };
      return new Response(null, { status: 204, headers });
    },
    decorate(request, response) {
      if (!allows(request)) return response;
      const headers = new Headers(response.headers);
      const exposed = ['WWW-Authenticate', ...[...response.headers.keys()].filter((k) => k.startsWith('mcp-'))];
      headers.set('access-control-allow-origin', request.headers.get('origin')!);
      headers.set('access-control-expose-headers', exposed.join(', '));
      headers.append('vary', 'Origin');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
  };
}
