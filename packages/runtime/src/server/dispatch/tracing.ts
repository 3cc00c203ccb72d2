// Where the server span of ops/telemetry.ts meets the SDK's handler context: the request's id, `_meta`,
// target (tool, prompt, resource URI) and, over HTTP, its headers (traceparent) — read without building a
// Web Request on the fast path, which hands its node headers instead.
import type { ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { callerKey, rateLimitedError, type RateLimiter } from '../ops/rate-limit.js';
import type { Telemetry, TracedRequest } from '../ops/telemetry.js';
import type { AccessLog } from '../ops/access-log.js';
import { principalKeyOf, principalOf } from '../auth/auth.js';
import { TaskCreated } from '../tasks/server-class.js';
import { requestBuiltOnRead } from './request-context.js';

type Header = (name: string) => string | undefined;

/** The header reader of a request context: the Web Request's, or the fast path's node headers; none on stdio. */
function headerOf(ctx: ServerContext): Header | undefined {
  const http = (ctx as { http?: { req?: Request; nodeHeaders?: Record<string, string | string[] | undefined> } }).http;
  if (http === undefined) return undefined;
  if (http.nodeHeaders !== undefined) {
    const headers = http.nodeHeaders;
    return (name) => {
      const v = headers[name];
      return typeof v === 'string' ? v : undefined;
    };
  }
  const req = requestBuiltOnRead(http) ? undefined : http.req;
  return req === undefined ? () => undefined : (name) => req.headers.get(name) ?? undefined;
}

export function tracedRequest(method: string, ctx: ServerContext, target: Pick<TracedRequest, 'tool' | 'prompt' | 'uri'> = {}): TracedRequest {
  // One object shape for every request (no spread of `target`): Telemetry.serve's reads stay monomorphic.
  const req = ctx.mcpReq as { id: unknown; _meta?: unknown; envelope?: Record<string, unknown> };
  return { method, id: req.id as string | number | undefined, meta: req._meta as Record<string, unknown> | undefined, header: headerOf(ctx), envelope: req.envelope, tool: target.tool, prompt: target.prompt, uri: target.uri };
}

/** A request handler run inside its span (or as it is, without telemetry). */
export function traced<P, R>(telemetry: Telemetry | undefined, method: string, target: (params: P) => Pick<TracedRequest, 'tool' | 'prompt' | 'uri'>, handler: (req: { params: P }, ctx: ServerContext) => R | Promise<R>) {
  if (telemetry === undefined) return handler;
  return (req: { params: P }, ctx: ServerContext): Promise<R> => telemetry.serve(tracedRequest(method, ctx, target(req.params)), async () => handler(req, ctx));
}

export const noTarget = () => ({});

/**
 * Rate limits where no HTTP face counted the request (stdio, in-memory transports): one caller per
 * connection's process. Past a limit the request is answered with the JSON-RPC error (code 429).
 */
export async function checkLocalLimit(limiter: RateLimiter | undefined, ctx: ServerContext, tool: string | undefined): Promise<void> {
  if (limiter === undefined || (ctx as { http?: unknown }).http !== undefined) return;
  const refused = await limiter.check(callerKey('', undefined), tool);
  if (refused === undefined) return;
  const error = rateLimitedError(refused);
  throw new ProtocolError(error.code, error.message, error.data);
}

type Target = Pick<TracedRequest, 'tool' | 'prompt' | 'uri'>;
export type Observe = (method: string, ctx: ServerContext, target: Target, fn: () => Promise<unknown>) => Promise<unknown>;

/**
 * What runs around every handled request when telemetry or the access log is on: the server span (inside)
 * and one access-log line (outside, with the span's trace id). Undefined when both are off: no wrapper at all.
 */
export function observer(telemetry: Telemetry | undefined, accessLog: AccessLog | undefined): Observe | undefined {
  if (telemetry === undefined && accessLog === undefined) return undefined;
  // Spans without an access log: nothing to read back from the span (no trace id), no closure of ours per request.
  if (accessLog === undefined) return (method, ctx, target, fn) => telemetry!.serve(tracedRequest(method, ctx, target), fn);
  return async (method, ctx, target, fn) => {
    const started = performance.now();
    let traceId: string | undefined;
    const run =
      telemetry === undefined
        ? fn
        : () =>
            telemetry.serve(tracedRequest(method, ctx, target), () => {
              traceId = telemetry.traceId();
              return fn();
            });
    if (accessLog === undefined) return run();
    const log = (outcome: 'ok' | 'tool_error' | 'error', errorCode?: number) =>
      accessLog({
        method,
        id: ctx.mcpReq.id as string | number | undefined,
        ...target,
        durationMs: performance.now() - started,
        outcome,
        ...(errorCode !== undefined ? { errorCode } : {}),
        principalKey: principalKeyOf(principalOf(ctx.http?.authInfo)),
        traceId,
        transport: (ctx as { http?: unknown }).http === undefined ? 'stdio' : 'http',
      });
    try {
      const result = await run();
      log(typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok');
      return result;
    } catch (e) {
      // A created task's answer, thrown past the SDK's CallToolResult check (tasks/server-class.ts): a success.
      if (e instanceof TaskCreated) {
        log('ok');
        throw e;
      }
      const code = (e as { code?: unknown } | null)?.code;
      log('error', typeof code === 'number' ? code : -32603);
      throw e;
    }
  };
}

/** A request an HTTP face refused before any handler ran (a rate limit): what its span and access-log line need. */
export interface Refusal {
  /** The parsed JSON-RPC request. */
  readonly body: unknown;
  readonly header: Header | undefined;
  readonly principalKey: string;
  /** performance.now() when the face began to judge it. */
  readonly startedAt: number;
  readonly error: { readonly code: number; readonly message: string };
}

export type ObserveRefusal = (refusal: Refusal) => Promise<void>;

/**
 * The span (status ERROR, error.type the code) and the access-log line of a refused request, as a handled
 * request that failed gets them; undefined when telemetry and the access log are both off.
 */
export function refusalObserver(telemetry: Telemetry | undefined, accessLog: AccessLog | undefined): ObserveRefusal | undefined {
  if (telemetry === undefined && accessLog === undefined) return undefined;
  return async ({ body, header, principalKey, startedAt, error }) => {
    const msg = body as { id?: string | number; method: string; params?: { name?: unknown; uri?: unknown; _meta?: unknown } };
    const target = targetOf(msg.method, msg.params);
    const meta = msg.params?._meta;
    let traceId: string | undefined;
    if (telemetry !== undefined) {
      const request = { method: msg.method, id: msg.id, meta: typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined, header, ...target };
      await telemetry
        .serve(request, () => {
          traceId = telemetry.traceId();
          return Promise.reject(new ProtocolError(error.code, error.message));
        })
        .catch(() => {});
    }
    accessLog?.({ method: msg.method, id: msg.id, ...target, durationMs: performance.now() - startedAt, outcome: 'error', errorCode: error.code, principalKey, traceId, transport: 'http' });
  };
}

/** The tool, prompt or resource a request names (its span's and log line's target). */
function targetOf(method: string, params: { name?: unknown; uri?: unknown } | undefined): Target {
  const name = typeof params?.name === 'string' ? params.name : undefined;
  if (method === 'tools/call') return { tool: name };
  if (method === 'prompts/get') return { prompt: name };
  return method === 'resources/read' && typeof params?.uri === 'string' ? { uri: params.uri } : {};
}

/** What the SDK answers itself (over HTTP and stdio), with no handler of the runtime's around it: the transport spans them. */
export const PROTOCOL_METHODS: ReadonlySet<string> = new Set(['initialize', 'ping', 'server/discover', 'subscriptions/listen']);

/**
 * Whether the transport makes this message's server span: a request of PROTOCOL_METHODS, or a notification
 * from the client (`notifications/initialized`, `notifications/cancelled`…): the conventions' server span
 * covers "the MCP request or notification initiated by the peer", and no runtime handler runs for those.
 */
export function isProtocolMessage(method: string, hasId: boolean): boolean {
  return hasId ? PROTOCOL_METHODS.has(method) : method.startsWith('notifications/');
}

/**
 * Serves one parsed JSON-RPC message, inside a server span when isProtocolMessage says so.
 * `header` reads the HTTP request's headers (traceparent, mcp-protocol-version); undefined on stdio.
 */
export type TraceProtocol = <T>(body: unknown, header: Header | undefined, serve: () => Promise<T>) => Promise<T>;

/**
 * The span of `initialize`, `ping`, `server/discover`, `subscriptions/listen` and client notifications (named
 * by the method: they have no target). A listen span ends when its stream opens, not when it closes (the
 * stream gauge counts those); a notification's when the transport has handed it on (over HTTP: the 202).
 */
export function protocolTracer(telemetry: Telemetry | undefined): TraceProtocol | undefined {
  if (telemetry === undefined) return undefined;
  return (body, header, serve) => {
    const msg = body as { method?: unknown; id?: unknown; params?: { _meta?: unknown } } | null;
    if (typeof msg !== 'object' || msg === null || typeof msg.method !== 'string' || !isProtocolMessage(msg.method, msg.id !== undefined)) return serve();
    const meta = msg.params?._meta;
    return telemetry.serve(
      {
        method: msg.method,
        id: typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined,
        meta: typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined,
        header,
      },
      serve,
    );
  };
}
