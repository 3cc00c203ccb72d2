// The HTTP fast path: the hottest requests (JSON-mode `tools/call`, tools/resources/prompts lists) of
// the node:http face answered without the SDK's per-request pipeline (a Server and transport per
// request, zod over every message) and without Web Request/Response objects.
//
// It only ever ANSWERS requests the SDK path would answer with a result, and it answers them the same:
// - It accepts a request only when every check the SDK path makes passes, checked more strictly here
//   (exact header values, a known set of keys); anything else — an error to report, SSE,
//   progress tokens, MRTR input responses or requestState, elicitation or task-capable tools, an
//   Origin header, a Host it does not plainly know — is served by the SDK path, unchanged.
// - Mcp-Param-* headers are checked by the same function the SDK path uses (http.ts).
// - Behind `auth:`, the bearer gate (auth.ts) runs first, as on the SDK path, before the body is read
//   (admit): its 400/401/403/503 answers are sent as they are; a verified caller's per-item scopes are
//   checked by the gate's own checkScopes, and its AuthInfo reaches handlers as on the SDK path. A
//   request handed to the SDK path carries the verification (vouchFor), so the token is verified once.
//   List pages are remembered per set of scopes (hideForbiddenTools lists differ by scopes).
// - The `_meta` envelope is trusted only once the SDK path has accepted the very same envelope (the
//   first request with it goes through the SDK; its success marks it good).
// - List results are the SDK's own answer, captured the first time a page is asked for and then
//   replayed (the lists of a definition never change).
// - A tool's result is encoded here only when the SDK's encoding is known to leave it as is (text
//   content, an object structuredContent); any other result is handed to the SDK path to encode
//   (stashPrecomputed): the tool runs once either way.
import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import { stashPrecomputed, type FastServerHooks, type Precomputed } from '../dispatch/fast-path-hooks.js';
import type { HeaderDeclaration } from '../../shared/header-values.js';
import { principalKeyOf, type AuthGate, type Authenticated } from '../auth/auth.js';
import type { Cancel } from '../core/cancel.js';
import type { RateLimiter } from '../ops/rate-limit.js';
import type { ObserveRefusal } from '../dispatch/tracing.js';
import { markCounted, rateLimitAnswer, refusalWatch } from './rate-limits.js';
import { contextFor } from './fast-context.js';

const VERSION = '2026-07-28';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY]);
const LISTS = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);
/** A tool name sent as is in Mcp-Name (no Base64 sentinel, nothing to decode). */
const PLAIN_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;
const MAX_REMEMBERED = 1024;
/** Stateless (no stream option): one serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface FastRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** Aborts when the client goes away before the answer is complete (made on first read). */
  readonly signal: AbortSignal;
  /** Hears the same cancellation without making the signal (core/cancel.ts). */
  readonly cancel?: Cancel;
  /** The same request as a Web Request (with this body), for the SDK path. */
  toRequest(): Request;
  /** The caller `admit` verified (servers with `auth:`). */
  readonly auth?: Authenticated | undefined;
  /** The client's address (rate limits without a principal). */
  readonly address?: string | undefined;
}

/** A complete JSON answer, or the SDK path's Response (possibly a stream) to send as it is. */
export type FastAnswer = { readonly status: number; readonly body: string } | Response;

export interface FastPath {
  /** Whether a request with these headers may be answered here (decided before its body is read). */
  wants(method: string | undefined, headers: IncomingHttpHeaders): boolean;
  /** The answer, or undefined when the SDK path must serve the request (handler.fetch). */
  serve(request: FastRequest): Promise<FastAnswer | undefined>;
  /**
   * Servers with `auth:`: the bearer gate, run before the body is read (as the SDK path runs it): the
   * verified caller to pass to serve (and to vouch for on the Request handed to the SDK path), or the
   * gate's answer to send as it is.
   */
  readonly admit?: (headers: IncomingHttpHeaders, url: URL) => Promise<Authenticated | Response>;
}

export interface FastPathOptions {
  readonly hooks: FastServerHooks;
  /** Allowed Host names (undefined: any), as http.ts checks them. */
  readonly hosts: readonly string[] | undefined;
  /** Allowed origins (undefined: any); a request with an Origin header goes through the SDK path otherwise. */
  readonly origins: readonly string[] | undefined;
  readonly headerTable: ReadonlyMap<string, readonly HeaderDeclaration[]>;
  readonly paramHeaderMismatch: (body: unknown, headers: Headers, table: ReadonlyMap<string, readonly HeaderDeclaration[]>) => string | undefined;
  /** The SDK path (http.ts's fetch). */
  readonly slow: (request: Request) => Promise<Response>;
  /** The bearer gate of a server with `auth:`. */
  readonly gate?: AuthGate;
  /** Rate limits: counted here for what this path answers or runs, by the SDK path for what it hands over. */
  readonly rateLimiter?: RateLimiter;
  /** The span and access-log line of a refused request (the factory's). */
  readonly observeRefusal?: ObserveRefusal;
}

interface Message {
  readonly id: string | number;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly meta: Record<string, unknown>;
}

export function createFastPath(options: FastPathOptions): FastPath {
  const { hooks, gate } = options;
  const goodEnvelopes = new Set<string>();
  const lists = new Map<string, string>();
  // The end of every fast tool result, written once: the server info is the larger part of a small result.
  const resultTail = `"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_KEY]: hooks.serverInfo })}}`;
  const limit = limitOf(options);

  /** The SDK path, learning from a result: the envelope it accepted, the list page it answered. */
  async function viaSdk(request: FastRequest, msg: Message, envelope: string, listKey: string | undefined): Promise<FastAnswer> {
    const response = await options.slow(request.toRequest());
    if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
    const body = await response.text();
    try {
      const parsed = JSON.parse(body) as { result?: unknown; id?: unknown };
      if (parsed.result !== undefined && parsed.id === msg.id) {
        if (goodEnvelopes.size < MAX_REMEMBERED) goodEnvelopes.add(envelope);
        if (listKey !== undefined && lists.size < MAX_REMEMBERED) lists.set(listKey, JSON.stringify(parsed.result));
      }
    } catch {
      // not ours to judge: sent as the SDK wrote it
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  async function serve(request: FastRequest): Promise<FastAnswer | undefined> {
    const msg = parse(request);
    if (msg === undefined) return undefined;
    const { auth } = request;
    // The SDK path checks per-item scopes on any JSON body it parsed, first (http.ts): so does this.
    if (auth !== undefined && gate!.perItemScopes) {
      const refused = gate!.checkScopes(msg, auth.principal, auth.resource);
      if (refused !== undefined) return refused;
    }
    const envelope = JSON.stringify(msg.meta);
    if (LISTS.has(msg.method)) {
      if (hooks.changingLists?.has(msg.method)) return undefined;
      if (!hasOnly(msg.params, ['cursor', '_meta']) || (msg.params.cursor !== undefined && typeof msg.params.cursor !== 'string')) return undefined;
      const scopes = auth === undefined ? '' : [...auth.principal.scopes].sort().join(' ');
      const key = `${msg.method}\u0000${(msg.params.cursor as string | undefined) ?? ''}\u0000${scopes}`;
      const cached = goodEnvelopes.has(envelope) ? lists.get(key) : undefined;
      if (cached === undefined) return viaSdk(request, msg, envelope, key);
      const limited = limit === undefined ? undefined : await limit(request, msg);
      if (limited !== undefined) return limited;
      return { status: 200, body: `{"result":${cached},"jsonrpc":"2.0","id":${JSON.stringify(msg.id)}}` };
    }
    // tools/call
    const { name, arguments: args } = msg.params;
    if (!hasOnly(msg.params, ['name', 'arguments', '_meta']) || typeof name !== 'string' || !PLAIN_NAME.test(name)) return undefined;
    if (request.headers['mcp-name'] !== name || (args !== undefined && !isPlainObject(args)) || !hooks.eligible(name)) return undefined;
    if (options.headerTable.has(name)) {
      const body = { jsonrpc: '2.0', id: msg.id, method: msg.method, params: msg.params };
      if (options.paramHeaderMismatch(body, headerView(request.headers), options.headerTable) !== undefined) return undefined;
    }
    if (!goodEnvelopes.has(envelope)) return viaSdk(request, msg, envelope, undefined);
    const limited = limit === undefined ? undefined : await limit(request, msg);
    if (limited !== undefined) return limited;
    let outcome: Precomputed;
    try {
      outcome = { ok: true, value: await hooks.callTool(name, args, contextFor(msg.id, msg.meta, request, auth)) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (outcome.ok && isPlainToolResult(outcome.value)) {
      // The bytes JSON.stringify({ result: { ...value, resultType, _meta }, jsonrpc, id }) gives (value has no such keys).
      const fields = JSON.stringify(outcome.value);
      const result = `${fields.length === 2 ? '{' : `${fields.slice(0, -1)},`}${resultTail}`;
      return { status: 200, body: `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(msg.id)}}` };
    }
    // Errors, input_required, other content: the SDK encodes (and validates) the outcome as it would its own.
    const web = request.toRequest();
    stashPrecomputed(web, outcome);
    markCounted(web);
    return options.slow(web);
  }

  const admit = gate === undefined ? undefined : (headers: IncomingHttpHeaders, url: URL) => gate.authenticateHeader(headers.authorization ?? null, url);
  const wants = (method: string | undefined, h: IncomingHttpHeaders): boolean => wantsRequest(options, method, h);
  return { wants, serve, ...(admit !== undefined ? { admit } : {}) };
}

/**
 * The 429 answer when the caller is past a limit (counted once: the SDK path skips a request marked counted);
 * undefined without rate limits, so a request does not wait a microtask for nothing.
 */
function limitOf({ rateLimiter, observeRefusal }: FastPathOptions): ((request: FastRequest, msg: Message) => Promise<Response | undefined>) | undefined {
  if (rateLimiter === undefined) return undefined;
  return (request, msg) => {
    const watch = refusalWatch(observeRefusal, (name) => headerView(request.headers).get(name) ?? undefined);
    return rateLimitAnswer(rateLimiter, msg, principalKeyOf(request.auth?.principal), request.address, watch);
  };
}

/** Whether the headers alone allow the fast path: a plain JSON POST of tools/call or a list, nothing to check but the body. */
function wantsRequest({ hosts, origins, gate }: FastPathOptions, method: string | undefined, h: IncomingHttpHeaders): boolean {
  // Without a gate a credential is left to the SDK path, which ignores it: nothing to gain here.
  if (method !== 'POST' || (gate === undefined && h.authorization !== undefined)) return false;
  if (origins !== undefined && h.origin !== undefined) return false;
  if (hosts !== undefined && !hosts.includes(hostnameOf(h.host))) return false;
  if (h['mcp-protocol-version'] !== VERSION || !isJsonContentType(h['content-type'] ?? null)) return false;
  const accept = h.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const m = h['mcp-method'];
  return m === 'tools/call' || (typeof m === 'string' && LISTS.has(m) && h['mcp-name'] === undefined);
}

/** The JSON-RPC request, when it is plainly one the fast path may serve; undefined otherwise. */
function parse(request: FastRequest): Message | undefined {
  let body: unknown;
  try {
    body = JSON.parse(UTF8.decode(request.body));
  } catch {
    return undefined; // not UTF-8 or not JSON: the SDK path answers
  }
  if (!isPlainObject(body) || !hasOnly(body, ['jsonrpc', 'id', 'method', 'params']) || body.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || typeof method !== 'string' || method !== request.headers['mcp-method']) return undefined;
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return undefined;
  const meta = params._meta;
  if (!Object.keys(meta).every((k) => ENVELOPE_KEYS.has(k)) || meta[PROTOCOL_VERSION_KEY] !== VERSION || !isPlainObject(meta[CLIENT_CAPABILITIES_KEY])) return undefined;
  return { id: id as string | number, method, params, meta };
}

/**
 * A tools/call result the SDK's 2026 encoding passes through unchanged: text content only, an object
 * structuredContent (no `__proto__` key, which a parse would drop), no resultType or _meta of its own.
 */
function isPlainToolResult(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || !hasOnly(value, ['content', 'structuredContent', 'isError'])) return false;
  const { content, structuredContent, isError } = value;
  if (!Array.isArray(content) || !content.every((c) => isPlainObject(c) && hasOnly(c, ['type', 'text']) && c.type === 'text' && typeof c.text === 'string')) return false;
  if (structuredContent !== undefined && (!isPlainObject(structuredContent) || Object.hasOwn(structuredContent, '__proto__'))) return false;
  return isError === undefined || isError === true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Only these keys (for-in: no key array per call; an inherited enumerable key counts as another key). */
function hasOnly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const k in value) if (!keys.includes(k)) return false;
  return true;
}

/** "localhost:3000" → "localhost", "[::1]:80" → "[::1]"; "" when there is none. */
function hostnameOf(host: string | undefined): string {
  if (host === undefined) return '';
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? '' : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Node's headers read as a Web Headers object is (only `get` is used by paramHeaderMismatch). */
function headerView(headers: IncomingHttpHeaders): Headers {
  return {
    get(name: string): string | null {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  } as Headers;
}
