// One 2026-07-28 JSON-RPC POST with the standard headers right, as a Web Request: for tests that call a
// server's fetch face (handler.fetch) or a real endpoint (fetch) and must see the raw answer.

export const PROTOCOL_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

export interface McpRequestOptions {
  /** Default `http://127.0.0.1/mcp` (the fetch face does not look at the host). */
  readonly url?: string;
  /** `_meta` keys over PROTOCOL_META (e.g. the client's capabilities); `params._meta` wins over both. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The Mcp-Name header; default `params.name` when it is a string, else none. */
  readonly name?: string;
  /** More headers (Mcp-Param-*, Authorization, …), over the standard ones. */
  readonly headers?: Readonly<Record<string, string>>;
}

export function mcpRequest(method: string, params: Record<string, unknown> = {}, options: McpRequestOptions = {}): Request {
  const name = options.name ?? (typeof params.name === 'string' ? params.name : undefined);
  const meta = { ...PROTOCOL_META, ...options.meta, ...(params._meta as object | undefined) };
  return new Request(options.url ?? 'http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
}
