// Streamable HTTP (2026-07-28) as a Web-standard fetch handler, on the SDK's createMcpHandler.
// The SDK validates the standard headers; what it leaves to us (see SDK-NOTES): Origin and Host checks,
// and Mcp-Param-* for a low-level Server (the SDK checks them only for McpServer instances).
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isJsonContentType,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
  type ServerEventBus,
  type ServerNotifier,
} from '@modelcontextprotocol/server';
import { checkParamHeaders, decodeHeaderValue, type HeaderDeclaration } from '../../shared/header-values.js';
import { createAuthGate, principalKeyOf, vouchedFor, type AuthGate, type AuthOptions } from '../auth/auth.js';
import type { ServerDefinition } from '../core/definition.js';
import type { ServerFactory } from '../dispatch/create-server.js';
import { reportLegacyRefusals } from './legacy-refusal.js';
import { serveTaskListen } from '../tasks/listen.js';
import { inPrincipalScope, principalScope, scopedBus } from '../scale/principal-scope.js';
import { whenListening } from '../scale/redis-bus.js';
import { NOT_UTF8, readLimited, TOO_LARGE } from './read-body.js';
import type { TaskStore } from '../tasks/store.js';
import type { ReadinessCheck } from '../ops/health.js';
import type { RateLimiter } from '../ops/rate-limit.js';
import { clientAddressOf, rateLimitAnswer, refusalWatch, wasCounted } from './rate-limits.js';
import { createFastPath, type FastPath } from './fast-path.js';
import { createCors, type Cors } from './cors.js';
import type { IncomingHttpHeaders } from 'node:http';

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
   * Browser origins (`https://app.example`) allowed to call this server cross-origin (CORS): their
   * preflights are answered before the bearer gate and their answers expose WWW-Authenticate and Mcp-*.
   * Default none (`--cors-origins` / `MCPGEN_CORS_ORIGINS` set it for a generated server).
   */
  readonly corsOrigins?: readonly string[];
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
  /**
   * Most `subscriptions/listen` streams open at once (the SDK's limit, default 1024); one more is
   * answered -32603 "Subscription limit reached". A stream counts until its client disconnects.
   */
  readonly maxListenStreams?: number;
  /** Token verification and the resource identifier, for a spec with `auth:` (ignored without it). */
  readonly auth?: AuthOptions;
  /** Path of the MCP endpoint (for the derived resource identifier and root metadata). `listen` sets it. Default: the request's path (root metadata: `/mcp`). */
  readonly endpointPath?: string;
  /** The server's task store (createMcpgenServer passes it): listen requests with `taskIds` get notifications/tasks. */
  readonly taskStore?: TaskStore;
  /**
   * Answer plain JSON `tools/call` and list requests on node:http without the SDK's per-request pipeline
   * (fast-path.ts: same checks, same answers; anything else still goes through the SDK). Default true;
   * never used with responseMode 'sse'. With `auth:` it serves requests whose token the gate verified.
   */
  readonly fastPath?: boolean;
  /** Conditions the readiness probe checks besides the authorization server (listen answers the probes). */
  readonly readiness?: readonly ReadinessCheck[];
  /** Rate limits per caller (ops/rate-limit.ts): 429 with Retry-After past them. */
  readonly rateLimiter?: RateLimiter;
}

export interface HttpHandler {
  /** Serve one request: any runtime with Web `Request`/`Response` (Node, workers, serverless). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Publish change notifications to open `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
  readonly close: () => Promise<void>;
  /** The node:http face's fast path (absent when it does not apply). */
  readonly fast?: FastPath;
  /** What readiness waits for: the options' checks and, with `auth:`, the authorization server's discovery. */
  readonly readiness: readonly ReadinessCheck[];
}

/**
 * A listen stream is its caller's: it subscribes to the bus as that principal (scale/principal-scope.ts).
 * Only dynamic discovery publishes principal-scoped events: without it the scope (an AsyncLocalStorage,
 * which on Node 20 keeps promise hooks on for the whole process once used) would cost every await.
 */
function inCallerScope<T>(def: ServerDefinition, body: unknown, principalKey: string, serve: () => T): () => T {
  const scoped = def.discovery !== undefined && (body as { method?: unknown } | null)?.method === 'subscriptions/listen';
  return scoped ? () => inPrincipalScope(principalScope(principalKey), serve) : serve;
}

export function createHttpHandler(factory: ServerFactory, def: ServerDefinition, options: HttpOptions = {}): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Listen streams hear events scoped to another principal (dynamic discovery) not at all.
  const bus = options.bus !== undefined ? scopedBus(options.bus) : undefined;
  const sdk: McpHttpHandler = createMcpHandler(({ era }) => factory({ era }), {
    legacy: options.legacy === false ? 'reject' : 'stateless',
    responseMode: options.responseMode ?? 'auto',
    maxRequestBodySize: maxBodyBytes,
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    onerror: options.legacy === false ? reportLegacyRefusals(options.onerror) : (options.onerror ?? (() => {})),
    ...(bus !== undefined ? { bus } : {}),
    ...(options.maxListenStreams !== undefined ? { maxSubscriptions: options.maxListenStreams } : {}),
  });
  const headerTable = new Map<string, readonly HeaderDeclaration[]>();
  for (const t of def.tools) if (t.headers.length > 0) headerTable.set(t.definition.name, t.headers);
  const origins = options.allowedOrigins === '*' ? undefined : [...(options.allowedOrigins ?? localhostAllowedOrigins())];
  const hosts = options.allowedHosts === '*' ? undefined : [...(options.allowedHosts ?? localhostAllowedHostnames())];
  const gate = def.auth === undefined ? undefined : createAuthGate(def, def.auth, options.auth ?? {}, options.endpointPath);
  const cors = createCors(options.corsOrigins);
  const fetch = async (request: Request): Promise<Response> => (cors === undefined ? serveRequest(request) : cors.decorate(request, await serveRequest(request)));

  async function serveRequest(request: Request): Promise<Response> {
    const refused = await beforeTheGate(request, { hosts, origins, gate, cors });
    if (refused !== undefined) return refused;
    // Every request needs a valid token (server/discover included) before its body is even read.
    const auth = gate === undefined ? undefined : (vouchedFor(request) ?? (await gate.authenticate(request)));
    if (auth instanceof Response) return auth;
    const extra = auth === undefined ? {} : { authInfo: auth.authInfo };
    if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) return withoutNullId(await sdk.fetch(request, extra));
    // The body is read here for every JSON POST, so each face answers the same: 413 past the limit
    // (however the body was framed), 400 -32700 for bytes that are not UTF-8 (the SDK would decode
    // them to U+FFFD and serve the request: J1), and the SDK gets the original Request — a copy with
    // our signal would follow the client's disconnect only through a WeakRef.
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > maxBodyBytes) return jsonRpcError(413, null, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
    const text = await readLimited(request, maxBodyBytes);
    if (text === TOO_LARGE) return jsonRpcError(413, null, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
    if (text === NOT_UTF8) return jsonRpcError(400, null, -32700, 'Parse error: the request body is not valid UTF-8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // The SDK answers -32700 (or serves a legacy client) with its own ladder.
      return withoutNullId(await sdk.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }), extra));
    }
    const early = wireRefusal(body, request.headers, options.legacy !== false);
    if (early !== undefined) return early;
    if (auth !== undefined && gate!.perItemScopes) {
      const refused = gate!.checkScopes(body, auth.principal, auth.resource);
      if (refused !== undefined) return refused;
    }
    if (options.rateLimiter !== undefined && !wasCounted(request)) {
      const limited = await rateLimitAnswer(options.rateLimiter, body, principalKeyOf(auth?.principal), clientAddressOf(request), refusalWatch(factory.observeRefusal, (name) => request.headers.get(name) ?? undefined));
      if (limited !== undefined) return limited;
    }
    if (headerTable.size > 0) {
      const mismatch = paramHeaderMismatch(body, request.headers, headerTable);
      if (mismatch !== undefined) return jsonRpcError(400, (body as { id?: unknown }).id ?? null, -32020, mismatch, { header: 'Mcp-Param' });
    }
    const serve = async () => {
      const store = options.taskStore;
      const listen = store && (await serveTaskListen(body, request, { store, bus, capabilities: def.capabilities, owner: principalKeyOf(auth?.principal), keepAliveMs: options.keepAliveMs ?? 15_000 }));
      // A listen stream's acknowledgement goes out once it hears other instances too (scale/redis-bus.ts).
      return whenListening(options.bus, body, listen || withoutNullId(await sdk.fetch(request, { parsedBody: body, ...extra })));
    };
    const run = inCallerScope(def, body, principalKeyOf(auth?.principal), serve);
    // initialize, ping, server/discover and subscriptions/listen have no runtime handler: their span is made here.
    return factory.traceProtocol === undefined ? run() : factory.traceProtocol(body, (name) => request.headers.get(name) ?? undefined, run);
  }

  const hooks = factory.fast;
  const fast =
    hooks !== undefined && options.fastPath !== false && options.responseMode !== 'sse'
      ? createFastPath({ hooks, hosts, origins, headerTable, paramHeaderMismatch, slow: fetch, ...(gate !== undefined ? { gate } : {}), ...(options.rateLimiter !== undefined ? { rateLimiter: options.rateLimiter } : {}), ...(factory.observeRefusal !== undefined ? { observeRefusal: factory.observeRefusal } : {}) })
      : undefined;
  // The fast path writes its answers itself: a cross-origin call takes the path that adds Access-Control-*.
  const fastFace = fast !== undefined && cors !== undefined ? { ...fast, wants: (method: string | undefined, headers: IncomingHttpHeaders) => headers.origin === undefined && fast.wants(method, headers) } : fast;
  const readiness = [...(options.readiness ?? []), ...(gate !== undefined ? [{ name: 'authorization server', ready: gate.ready }] : [])];
  return { fetch, notify: sdk.notify, close: () => sdk.close(), readiness, ...(fastFace !== undefined ? { fast: fastFace } : {}) };
}

/**
 * What is answered before the bearer gate: the Host check, public metadata, a listed origin's CORS
 * preflight (it carries no credentials), and the Origin check (a listed CORS origin passes it).
 */
async function beforeTheGate(request: Request, c: { hosts: string[] | undefined; origins: string[] | undefined; gate: AuthGate | undefined; cors: Cors | undefined }): Promise<Response | undefined> {
  if (c.hosts !== undefined) {
    const rejected = checkHost(request, c.hosts);
    if (rejected !== undefined) return withoutNullId(rejected);
  }
  // Public metadata, readable cross-origin (browser-based clients discover the authorization server).
  const metadata = c.gate === undefined ? noMetadata(request) : c.gate.metadata(request);
  if (metadata !== undefined) return metadata;
  // A listed origin's preflight carries no credentials: answered here, before the bearer gate.
  const preflight = c.cors?.preflight(request);
  if (preflight !== undefined) return preflight;
  if (c.origins !== undefined && !(c.cors?.allows(request) ?? false)) {
    const rejected = originValidationResponse(request, c.origins);
    if (rejected !== undefined) return withoutNullId(rejected);
  }
  return undefined;
}

/** A server without `auth:` publishes no protected-resource metadata. */
function noMetadata(request: Request): Response | undefined {
  if (!new URL(request.url).pathname.startsWith('/.well-known/oauth-protected-resource')) return undefined;
  return jsonRpcError(404, null, -32601, 'Not found: this server declares no authorization');
}

/** DNS-rebinding protection. Behind the fetch face (workers, tests) a Request may carry no Host header: its URL names the host. */
function checkHost(request: Request, hosts: string[]): Response | undefined {
  const probe = request.headers.has('host') ? request : new Request(request.url, { headers: { host: new URL(request.url).host } });
  return hostHeaderValidationResponse(probe, hosts);
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

/**
 * The SDK writes `"id": null` on errors it cannot tie to a request; the 2026-07-28 schema allows no
 * null id (J2, and H2/H8 say such bodies carry no `id`). Only small error bodies are rewritten.
 */
async function withoutNullId(response: Response): Promise<Response> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  // An id that is not a RequestId (1.5, 1e300) is not echoed either (issue 25 item 2).
  if (typeof json === 'object' && json !== null && 'id' in json && !isRequestId((json as { id: unknown }).id)) delete (json as { id?: unknown }).id;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(json), { status: response.status, statusText: response.statusText, headers });
}

export function jsonRpcError(status: number, id: unknown, code: number, message: string, data?: unknown): Response {
  const error = { code, message, ...(data !== undefined ? { data } : {}) };
  return new Response(JSON.stringify({ jsonrpc: '2.0', ...(isRequestId(id) ? { id } : {}), error }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** schema.json's RequestId: a string or an integer (safe, so it round-trips through JSON as one). */
export function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/**
 * Refusals the SDK's ladder gets wrong with both eras on (issue 25):
 * - a JSON-RPC response (no method) sent with a 2026-07-28 version header went to the 2025 stack, which
 *   answered "Unsupported protocol version"; it is an invalid request, as with `legacy: false` (item 1);
 * - Mcp-Name with raw non-ASCII bytes (Node reads them as Latin-1) is refused like Mcp-Param-* (item 4).
 */
function wireRefusal(body: unknown, headers: Headers, bothEras: boolean): Response | undefined {
  const msg = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { id?: unknown; method?: unknown }) : undefined;
  const id = msg?.id ?? null;
  const name = headers.get('mcp-name');
  if (name !== null && !/^[\x20-\x7e\t]*$/.test(name)) {
    return jsonRpcError(400, id, -32020, 'Mcp-Name holds bytes outside visible ASCII: send non-ASCII names Base64-encoded (=?base64?...?=)', { header: 'Mcp-Name' });
  }
  if (bothEras && msg !== undefined && msg.method === undefined && headers.get('mcp-protocol-version')?.trim() === SUPPORTED_VERSIONS[0]) {
    return jsonRpcError(400, id, -32600, 'Invalid Request: a JSON-RPC request needs a method');
  }
  return undefined;
}
