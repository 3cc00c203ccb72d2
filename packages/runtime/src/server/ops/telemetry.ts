// OpenTelemetry for the server side, following the semantic conventions for MCP (open-telemetry/
// semantic-conventions-genai, docs/gen-ai/mcp.md): one SERVER span per request named `{mcp.method.name}
// {target}`, its parent taken from `params._meta` (traceparent/tracestate/baggage, unprefixed) or else from
// the HTTP `traceparent` header, active while the handler runs (a span the handler opens is its child), and
// the `mcp.server.operation.duration` histogram.
//
// `@opentelemetry/api` is an optional peer: it is loaded only by loadOpenTelemetry() (the generated main.ts
// calls it when MCPGEN_TELEMETRY=otel), and without `ServerOptions.telemetry` nothing here runs at all. The
// types below are the few API members used, written out so the runtime's .d.ts never names the package.
import { TaskCreated } from '../tasks/server-class.js';

/** An OpenTelemetry context (opaque). */
export type OtelContext = object;

interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  /** False for a span a sampler dropped (optional: a minimal API stand-in may lack it). */
  isRecording?(): boolean;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The members of `@opentelemetry/api` this runtime uses (pass the module itself: `import * as api from '@opentelemetry/api'`). */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): {
      startSpan(name: string, options: { kind: number; attributes: Readonly<Record<string, string | number>>; links?: { context: unknown }[] }, context: OtelContext): OtelSpan;
    };
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    getSpanContext(context: OtelContext): { traceId: string; spanId: string } | undefined;
  };
  readonly context: { with<R>(context: OtelContext, fn: () => R): R; active(): OtelContext };
  readonly propagation: {
    extract(context: OtelContext, carrier: Record<string, unknown>, getter: { keys(c: Record<string, unknown>): string[]; get(c: Record<string, unknown>, key: string): string | string[] | undefined }): OtelContext;
  };
  readonly metrics: {
    getMeter(name: string, version?: string): {
      createHistogram(name: string, options: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }): { record(value: number, attributes: Readonly<Record<string, string | number>>): void };
      // The counters of server-metrics.ts.
      createCounter(name: string, options: { description?: string; unit?: string }): { add(value: number, attributes?: Record<string, string>): void };
      createUpDownCounter(name: string, options: { description?: string; unit?: string }): { add(value: number, attributes?: Record<string, string>): void };
      createObservableUpDownCounter(name: string, options: { description?: string; unit?: string }): { addCallback(cb: (result: { observe(value: number, attributes?: Record<string, string>): void }) => void): void };
    };
  };
  readonly ROOT_CONTEXT: OtelContext;
  readonly SpanKind: { readonly SERVER: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}

// A specifier in a variable: bundlers (esbuild for workers) leave an optional peer alone instead of pulling it in.
const OPTIONAL_PEER: string = '@opentelemetry/api';

/** `import('@opentelemetry/api')`, or a one-line error saying what to install. */
export async function loadOpenTelemetry(): Promise<OpenTelemetryApi> {
  try {
    return (await import(OPTIONAL_PEER)) as OpenTelemetryApi;
  } catch {
    throw new Error('telemetry needs the @opentelemetry/api package (and an SDK to export): npm install @opentelemetry/api @opentelemetry/sdk-node');
  }
}

/** What one request's span is made of, read from the request and its transport. */
export interface TracedRequest {
  readonly method: string;
  readonly id?: string | number | undefined;
  readonly meta?: Record<string, unknown> | undefined;
  /** HTTP: a header reader (traceparent, mcp-protocol-version); undefined on stdio. */
  readonly header?: ((name: string) => string | undefined) | undefined;
  /**
   * The `_meta` envelope the SDK lifted out of `meta` for a 2026-07-28 request (ctx.mcpReq.envelope): where
   * the protocol version is on stdio, which has no header.
   */
  readonly envelope?: Readonly<Record<string, unknown>> | undefined;
  readonly tool?: string | undefined;
  readonly prompt?: string | undefined;
  readonly uri?: string | undefined;
}

export interface Telemetry {
  /** Run `fn` (the handler) inside the request's server span; records the duration histogram. */
  serve<T>(request: TracedRequest, fn: () => Promise<T>): Promise<T>;
  /** The trace id of the active span (inside serve's fn), for the access log. */
  traceId(): string | undefined;
}

/** The histogram's buckets, as the conventions advise (seconds). */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const PROPAGATION_KEYS = ['traceparent', 'tracestate', 'baggage'];

export function createTelemetry(api: OpenTelemetryApi, server: { readonly name: string; readonly version: string }): Telemetry {
  const tracer = api.trace.getTracer('@mcpgen/runtime', server.version);
  const duration = api.metrics.getMeter('@mcpgen/runtime', server.version).createHistogram('mcp.server.operation.duration', {
    description: 'MCP request duration as observed on the receiver from the time it was received until the result or ack is sent.',
    unit: 's',
    advice: { explicitBucketBoundaries: BUCKETS },
  });
  const kind = api.SpanKind.SERVER;
  const attributes = new AttributeCache(kind);

  /** Ends the span and records the histogram: a function of the module's, not a closure per request. */
  const finish = (span: OtelSpan, common: Attributes, started: number, errorType: string | undefined, message: string | undefined): void => {
    if (errorType !== undefined && (span.isRecording?.() ?? true)) {
      span.setAttribute('error.type', errorType);
      if (isCode(errorType)) span.setAttribute('rpc.response.status_code', errorType);
      span.setStatus(message !== undefined ? { code: api.SpanStatusCode.ERROR, message } : { code: api.SpanStatusCode.ERROR });
    }
    span.end();
    duration.record((performance.now() - started) / 1000, errorType === undefined ? common : attributes.failed(common, errorType));
  };

  return {
    traceId: () => api.trace.getSpanContext(api.context.active())?.traceId,
    async serve<T>(request: TracedRequest, fn: () => Promise<T>): Promise<T> {
      const started = performance.now();
      // params._meta first (the MCP client span is the parent whatever the transport); the HTTP header otherwise.
      const fromMeta = request.meta !== undefined && typeof request.meta.traceparent === 'string' ? api.propagation.extract(api.ROOT_CONTEXT, pick(request.meta), GETTER) : undefined;
      const httpCarrier = request.header === undefined ? undefined : headerCarrier(request.header);
      const fromHttp = httpCarrier === undefined ? undefined : api.propagation.extract(api.ROOT_CONTEXT, httpCarrier, GETTER);
      const parent = fromMeta ?? fromHttp ?? api.ROOT_CONTEXT;
      const link = fromMeta !== undefined && fromHttp !== undefined ? api.trace.getSpanContext(fromHttp) : undefined;
      // Name and attributes shared by every request of the same method, target, version and transport.
      const shared = attributes.shared(request);
      const common = shared.attributes;
      const span = tracer.startSpan(shared.name, link !== undefined ? { kind, attributes: common, links: [{ context: link }] } : shared.options, parent);
      // The per-request attributes only on a span that records (a sampled-out span throws them away).
      if (span.isRecording?.() ?? true) {
        if (request.id !== undefined) span.setAttribute('jsonrpc.request.id', String(request.id));
        if (request.uri !== undefined) span.setAttribute('mcp.resource.uri', request.uri);
      }
      let result: T;
      try {
        result = await api.context.with(api.trace.setSpan(parent, span), fn);
      } catch (e) {
        // A task's CreateTaskResult leaves the handler thrown (tasks/server-class.ts): the client got a result.
        if (e instanceof TaskCreated) {
          finish(span, common, started, undefined, undefined);
          throw e;
        }
        const code = (e as { code?: unknown } | null)?.code;
        finish(span, common, started, typeof code === 'number' ? String(code) : '-32603', e instanceof Error ? e.message : undefined);
        throw e;
      }
      finish(span, common, started, isToolError(result) ? 'tool_error' : undefined, undefined);
      return result;
    },
  };
}

type Attributes = Readonly<Record<string, string>>;

const GETTER = {
  keys: (c: Record<string, unknown>) => Object.keys(c),
  get: (c: Record<string, unknown>, key: string) => {
    const v = c[key];
    return typeof v === 'string' ? v : undefined;
  },
};

/** How many attribute sets are kept: the protocol version comes from the client, so the key space is not ours to bound. */
const MAX_CACHED = 512;

/** What every request of one method, target, protocol version and transport shares: built once, not per request. */
interface Shared {
  readonly name: string;
  readonly attributes: Attributes;
  /** startSpan's options without links (the SDK copies the attributes it keeps, so one frozen object serves all). */
  readonly options: { readonly kind: number; readonly attributes: Attributes };
}

/**
 * The span name and the low-cardinality attributes span and histogram share (no id, no URI), built once per
 * method, target, protocol version and transport rather than per request. Looked up by nested maps, so a
 * request builds no key string: method, then target, then version, then transport.
 */
class AttributeCache {
  private readonly byMethod = new Map<string, Map<string, Map<string, [Shared | undefined, Shared | undefined]>>>();
  private size = 0;
  private readonly failures = new WeakMap<Attributes, Map<string, Attributes>>();

  constructor(private readonly kind: number) {}

  shared(request: TracedRequest): Shared {
    const version = request.envelope?.[PROTOCOL_VERSION_KEY] ?? request.meta?.[PROTOCOL_VERSION_KEY] ?? request.header?.('mcp-protocol-version');
    const v = typeof version === 'string' ? version : undefined;
    const target = request.tool ?? request.prompt;
    const byTarget = this.byMethod.get(request.method);
    const byVersion = byTarget?.get(target ?? '');
    const pair = byVersion?.get(v ?? '');
    const http = request.header !== undefined ? 1 : 0;
    const cached = pair?.[http];
    if (cached !== undefined) return cached;
    const attributes = Object.freeze(commonAttributes(request, v));
    const made: Shared = { name: target !== undefined ? `${request.method} ${target}` : request.method, attributes, options: { kind: this.kind, attributes } };
    if (this.size >= MAX_CACHED) return made;
    this.size++;
    const targets = byTarget ?? new Map<string, Map<string, [Shared | undefined, Shared | undefined]>>();
    if (byTarget === undefined) this.byMethod.set(request.method, targets);
    const versions = byVersion ?? new Map<string, [Shared | undefined, Shared | undefined]>();
    if (byVersion === undefined) targets.set(target ?? '', versions);
    const slots = pair ?? [undefined, undefined];
    if (pair === undefined) versions.set(v ?? '', slots);
    slots[http] = made;
    return made;
  }

  /** `common` with error.type (and rpc.response.status_code for a JSON-RPC code). */
  failed(common: Attributes, errorType: string): Attributes {
    let byType = this.failures.get(common);
    if (byType === undefined) this.failures.set(common, (byType = new Map()));
    let made = byType.get(errorType);
    if (made === undefined) {
      made = Object.freeze({ ...common, 'error.type': errorType, ...(isCode(errorType) ? { 'rpc.response.status_code': errorType } : {}) });
      if (byType.size < 64) byType.set(errorType, made);
    }
    return made;
  }
}

function isCode(errorType: string): boolean {
  return /^-?\d+$/.test(errorType);
}

function commonAttributes(request: TracedRequest, version: string | undefined): Record<string, string> {
  return {
    'mcp.method.name': request.method,
    ...(version !== undefined ? { 'mcp.protocol.version': version } : {}),
    ...(request.tool !== undefined ? { 'gen_ai.tool.name': request.tool, 'gen_ai.operation.name': 'execute_tool' } : {}),
    ...(request.prompt !== undefined ? { 'gen_ai.prompt.name': request.prompt } : {}),
    ...(request.header !== undefined ? { 'network.transport': 'tcp', 'network.protocol.name': 'http' } : { 'network.transport': 'pipe' }),
  };
}

function pick(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of PROPAGATION_KEYS) if (typeof meta[k] === 'string') out[k] = meta[k];
  return out;
}

function headerCarrier(header: (name: string) => string | undefined): Record<string, unknown> | undefined {
  const traceparent = header('traceparent');
  if (traceparent === undefined) return undefined;
  const out: Record<string, unknown> = { traceparent };
  for (const k of ['tracestate', 'baggage']) {
    const v = header(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A CallToolResult with isError: the conventions' `tool_error`. */
function isToolError(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}
