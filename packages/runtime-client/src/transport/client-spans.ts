// OpenTelemetry CLIENT spans for the generated client, after the semantic conventions for MCP
// (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md, status "development"): one span per
// request this client sends, named `{mcp.method.name} {target}`, from the send to its answer, and its
// context written into `params._meta` (traceparent, tracestate, baggage: the W3C keys, unprefixed) so the
// server span is its child over stdio and HTTP alike. The `mcp.client.operation.duration` histogram too.
//
// Done on the transport, not per method: tools/list, tasks/get, subscriptions/listen… are requests too,
// including those the SDK sends on its own. Requests of the connect handshake (server/discover, initialize)
// are sent before the tap is on and have no span. `@opentelemetry/api` is never imported here: the
// application passes the module (ClientOptions.telemetry), so a client without it loads nothing.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The members of `@opentelemetry/api` the client uses (pass the module: `import * as api from '@opentelemetry/api'`). */
export interface ClientOpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): { startSpan(name: string, options: { kind: number; attributes: Record<string, string | number> }, context: object): OtelSpan };
    setSpan(context: object, span: OtelSpan): object;
  };
  readonly context: { active(): object };
  readonly propagation: { inject(context: object, carrier: Record<string, string>): void };
  readonly metrics: {
    getMeter(name: string, version?: string): {
      createHistogram(name: string, options: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }): { record(value: number, attributes: Record<string, string | number>): void };
    };
  };
  readonly SpanKind: { readonly CLIENT: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}

interface Pending {
  readonly span: OtelSpan;
  readonly started: number;
  readonly common: Record<string, string | number>;
}

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** The histogram's buckets, as the conventions advise (seconds). */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

type Request = { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> };
type Answer = { id?: string | number; result?: unknown; error?: { code: number; message?: string } };

/**
 * Trace every request sent on `transport` from now on. Call after the SDK connected (it owns onmessage and
 * onclose then); the tap sits outermost, so it sees answers as they arrived on the wire.
 */
export function traceClientRequests(api: ClientOpenTelemetryApi, transport: Transport, peer: URL | 'stdio' | undefined): void {
  const tracer = api.trace.getTracer('@mcpgen/runtime-client');
  const duration = api.metrics.getMeter('@mcpgen/runtime-client').createHistogram('mcp.client.operation.duration', {
    description: 'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.',
    unit: 's',
    advice: { explicitBucketBoundaries: BUCKETS },
  });
  const pending = new Map<string | number, Pending>();
  const network = networkAttributes(peer);

  const finish = (id: string | number, errorType: string | undefined, message?: string) => {
    const open = pending.get(id);
    if (open === undefined) return;
    pending.delete(id);
    const outcome: Record<string, string> = errorType === undefined ? {} : { 'error.type': errorType, ...(/^-?\d+$/.test(errorType) ? { 'rpc.response.status_code': errorType } : {}) };
    for (const [k, v] of Object.entries(outcome)) open.span.setAttribute(k, v);
    if (errorType !== undefined) open.span.setStatus({ code: api.SpanStatusCode.ERROR, ...(message !== undefined ? { message } : {}) });
    open.span.end();
    duration.record((performance.now() - open.started) / 1000, { ...open.common, ...outcome });
  };

  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as Partial<Request>;
    if (m.method === 'notifications/cancelled') finish((m.params as { requestId?: string | number } | undefined)?.requestId ?? '', 'cancelled');
    if (m.id === undefined || typeof m.method !== 'string') return send(message, options);
    const request = m as Request;
    const common = { ...commonAttributes(request), ...network };
    const params = request.params ?? {};
    const target = typeof params.name === 'string' && (request.method === 'tools/call' || request.method === 'prompts/get') ? params.name : undefined;
    const span = tracer.startSpan(target !== undefined ? `${request.method} ${target}` : request.method, {
      kind: api.SpanKind.CLIENT,
      attributes: { ...common, 'jsonrpc.request.id': String(request.id), ...(typeof params.uri === 'string' ? { 'mcp.resource.uri': params.uri } : {}) },
    }, api.context.active());
    pending.set(request.id, { span, started: performance.now(), common });
    options?.requestSignal?.addEventListener('abort', () => finish(request.id, 'cancelled'), { once: true });
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.trace.setSpan(api.context.active(), span), carrier);
    const meta = { ...(params._meta as Record<string, unknown> | undefined), ...carrier };
    return send({ ...request, params: { ...params, _meta: meta } } as JSONRPCMessage, options).catch((e: unknown) => {
      finish(request.id, e instanceof Error ? e.name : 'send_failed', e instanceof Error ? e.message : undefined);
      throw e;
    });
  };

  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const a = message as Answer & { method?: unknown };
    if (a.id !== undefined && a.method === undefined) {
      if (a.error !== undefined) finish(a.id, String(a.error.code), a.error.message);
      else finish(a.id, isToolError(a.result) ? 'tool_error' : undefined);
    }
    deliver?.call(transport, message, extra);
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    for (const id of [...pending.keys()]) finish(id, 'connection_closed');
    closed?.call(transport);
  };
}

/** The attributes span and histogram share (low cardinality: no id, no URI). */
function commonAttributes(request: Request): Record<string, string> {
  const params = request.params ?? {};
  const version = (params._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_KEY];
  const name = typeof params.name === 'string' ? params.name : undefined;
  return {
    'mcp.method.name': request.method,
    ...(typeof version === 'string' ? { 'mcp.protocol.version': version } : {}),
    ...(request.method === 'tools/call' && name !== undefined ? { 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool' } : {}),
    ...(request.method === 'prompts/get' && name !== undefined ? { 'gen_ai.prompt.name': name } : {}),
  };
}

/** HTTP: tcp, http and the server's address and port; stdio: pipe; a transport of the application's: nothing. */
function networkAttributes(peer: URL | 'stdio' | undefined): Record<string, string | number> {
  if (peer === undefined) return {};
  if (peer === 'stdio') return { 'network.transport': 'pipe' };
  const port = peer.port !== '' ? Number(peer.port) : peer.protocol === 'https:' ? 443 : 80;
  return { 'network.transport': 'tcp', 'network.protocol.name': 'http', 'server.address': peer.hostname.replace(/^\[|\]$/g, ''), 'server.port': port };
}

/** A CallToolResult with isError: the conventions' `tool_error`. */
function isToolError(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}
