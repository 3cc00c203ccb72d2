// Streamable HTTP (2026-07-28) as a Web-standard fetch handler, on the SDK's createMcpHandler.
// The SDK validates the standard headers; what it leaves to us (see SDK-NOTES): Origin and Host checks,
// and Mcp-Param-* for a low-level Server (the SDK checks them only for McpServer instances).
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
  type ServerEventBus,
  type ServerNotifier,
} from '@modelcontextprotocol/server';
import { checkParamHeaders, decodeHeaderValue, type HeaderDeclaration } from '../shared/header-values.js';
import type { ServerDefinition } from './definition.js';
import type { ServerFactory } from './create-server.js';
import { reportLegacyRefusals } from './legacy-refusal.js';

export const SUPPORTED_VERSIONS = ['2026-07-28'] as const;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpOptions {
  /** Hostnames allowed in `Origin` (403 otherwise). Default: localhost names. `'*'` disables the check. */
  readonly allowedOrigins?: readonly string[] | '*';
  /** Hostnames allowed in `Host` (DNS-rebinding protection). Default: localhost names. `'*'` disables it. */
  readonly allowedHosts?: readonly string[] | '*';
  /** Largest request body, in bytes (413 above). Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * `'auto'` (default): JSON answers, upgraded to SSE when a handler reports progress.
   * `'json'`: never stream (progress dropped). `'sse'`: always stream.
   */
  readonly responseMode?: 'auto' | 'json' | 'sse';
  /**
   * Serve 2025-11-25 clients statelessly (the spec's `protocol.legacy`). Default true; when false their
   * `initialize` gets -32022 and one line on stderr says why.
   */
  readonly legacy?: boolean;
  /** SSE keep-alive comment interval in ms (0 disables). Default 15000. */
  readonly keepAliveMs?: number;
  readonly onerror?: (error: Error) => void;
  /** The change-event bus listen streams subscribe to (default: a new in-process bus). */
  readonly bus?: ServerEventBus;
}

export interface HttpHandler {
  /** Serve one request: any runtime with Web `Request`/`Response` (Node, workers, serverless). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Publish change notifications to open `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
  readonly close: () => Promise<void>;
}

export function createHttpHandler(factory: ServerFactory, def: ServerDefinition, options: HttpOptions = {}): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sdk: McpHttpHandler = createMcpHandler(() => factory(), {
    legacy: options.legacy === false ? 'reject' : 'stateless',
    responseMode: options.responseMode ?? 'auto',
    maxRequestBodySize: maxBodyBytes,
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    onerror: options.legacy === false ? reportLegacyRefusals(options.onerror) : (options.onerror ?? (() => {})),
    ...(options.bus !== undefined ? { bus: options.bus } : {}),
  });
  const headerTable = new Map<string, readonly HeaderDeclaration[]>();
  for (const t of def.tools) if (t.headers.length > 0) headerTable.set(t.definition.name, t.headers);
  const origins = options.allowedOrigins === '*' ? undefined : [...(options.allowedOrigins ?? localhostAllowedOrigins())];
  const hosts = options.allowedHosts === '*' ? undefined : [...(options.allowedHosts ?? localhostAllowedHostnames())];

  async function fetch(request: Request): Promise<Response> {
    if (origins !== undefined) {
      const rejected = originValidationResponse(request, origins);
      if (rejected !== undefined) return rejected;
    }
    if (hosts !== undefined) {
      // Behind the fetch face (workers, tests) a Request may carry no Host header: its URL names the host.
      const probe = request.headers.has('host') ? request : new Request(request.url, { headers: { host: new URL(request.url).host } });
      const rejected = hostHeaderValidationResponse(probe, hosts);
      if (rejected !== undefined) return rejected;
    }
    if (request.method !== 'POST' || headerTable.size === 0) return sdk.fetch(request);
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > maxBodyBytes) return jsonRpcError(413, null, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
    const text = await readLimited(request, maxBodyBytes);
    if (text === undefined) return jsonRpcError(413, null, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
    const forward = new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return sdk.fetch(forward); // the SDK answers -32700 with its own ladder
    }
    const mismatch = paramHeaderMismatch(body, request.headers, headerTable);
    if (mismatch !== undefined) return jsonRpcError(400, (body as { id?: unknown }).id ?? null, -32020, mismatch, { header: 'Mcp-Param' });
    return sdk.fetch(forward, { parsedBody: body });
  }

  return { fetch, notify: sdk.notify, close: () => sdk.close() };
}

/**
 * Mcp-Param-* for tools/call, checked only when the earlier rungs of the SDK's ladder would pass
 * (version header = body version = supported, Mcp-Method and Mcp-Name match), so a request that fails
 * several rungs gets the same answer it would get from an McpServer.
 */
function paramHeaderMismatch(body: unknown, headers: Headers, table: ReadonlyMap<string, readonly HeaderDeclaration[]>): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const msg = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> } };
  if (msg.jsonrpc !== '2.0' || msg.method !== 'tools/call' || msg.id === undefined || typeof msg.params?.name !== 'string') return undefined;
  const decls = table.get(msg.params.name);
  if (decls === undefined) return undefined;
  const version = msg.params._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof version !== 'string' || !(SUPPORTED_VERSIONS as readonly string[]).includes(version)) return undefined;
  if (headers.get('mcp-protocol-version')?.trim() !== version) return undefined;
  if (headers.get('mcp-method')?.trim() !== 'tools/call') return undefined;
  const name = headers.get('mcp-name');
  if (name === null || decodeHeaderValue(name) !== msg.params.name) return undefined;
  return checkParamHeaders(decls, msg.params.arguments, (h) => headers.get(h))?.message;
}

async function readLimited(request: Request, limit: number): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function jsonRpcError(status: number, id: unknown, code: number, message: string, data?: unknown): Response {
  const error = { code, message, ...(data !== undefined ? { data } : {}) };
  return new Response(JSON.stringify({ jsonrpc: '2.0', ...(id !== null && id !== undefined ? { id } : {}), error }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
