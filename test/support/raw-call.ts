// One JSON-RPC request over real HTTP with every 2026-07-28 header right and a chosen Authorization
// header (or none): for auth tests that must see the raw status and challenge.
import { mcpRequest } from './mcp-request.js';

/** A raw JSON-RPC POST with a chosen Authorization header (or none). */
export async function rawCall(url: string, authorization: string | undefined, method = 'tools/call', params: Record<string, unknown> = { name: 'whoami', arguments: {} }): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return fetch(mcpRequest(method, params, {
    url,
    meta: { 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } },
    ...(name !== undefined ? { name } : {}),
    headers: authorization !== undefined ? { authorization } : {},
  }));
}
