// One JSON-RPC request over real HTTP with every 2026-07-28 header right and a chosen Authorization
// header (or none): for auth tests that must see the raw status and challenge.

/** A raw JSON-RPC POST with a chosen Authorization header (or none). */
export async function rawCall(url: string, authorization: string | undefined, method = 'tools/call', params: Record<string, unknown> = { name: 'whoami', arguments: {} }): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...(authorization !== undefined ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
}
