// Protected Resource Metadata (RFC 9728): the document that tells a client which authorization servers
// issue tokens for this server and which scopes it knows, at `/.well-known/oauth-protected-resource[/path]`.
import type { AuthSpec } from '../core/definition.js';

export const WELL_KNOWN = '/.well-known/oauth-protected-resource';

export interface MetadataSettings {
  /** The resource identifier set by option or spec; otherwise it is derived from the request. */
  readonly configured: string | undefined;
  readonly issuers: readonly string[];
  readonly declared: readonly string[];
  readonly spec: AuthSpec;
  readonly endpointPath: string | undefined;
}

/** The metadata answer when `request` asks for it, else undefined. */
export function metadataResponse(request: Request, s: MetadataSettings): Response | undefined {
  const url = new URL(request.url);
  if (url.pathname !== WELL_KNOWN && !url.pathname.startsWith(`${WELL_KNOWN}/`)) return undefined;
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': 'mcp-protocol-version' };
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, OPTIONS' } });
  const suffix = url.pathname.slice(WELL_KNOWN.length);
  // RFC 9728 §3.1: the metadata of `https://host/mcp` is at `/.well-known/oauth-protected-resource/mcp`.
  const resource = s.configured ?? `${url.origin}${suffix === '' ? (s.endpointPath ?? '/mcp') : suffix}`;
  if (s.configured !== undefined && suffix !== '' && suffix !== new URL(s.configured).pathname.replace(/\/$/, '')) {
    return Response.json({ error: 'not_found' }, { status: 404, headers: cors });
  }
  const document = {
    resource,
    authorization_servers: [...s.issuers],
    ...(s.declared.length > 0 ? { scopes_supported: s.declared } : {}),
    bearer_methods_supported: ['header'],
    ...(s.spec.resourceName !== undefined ? { resource_name: s.spec.resourceName } : {}),
    ...(s.spec.documentation !== undefined ? { resource_documentation: s.spec.documentation } : {}),
  };
  return Response.json(document, { headers: { ...cors, 'cache-control': 'max-age=300' } });
}
