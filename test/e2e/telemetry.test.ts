// Issue 30 item 1: OpenTelemetry after the semantic conventions for MCP (semantic-conventions-genai,
// docs/gen-ai/mcp.md), with the real OpenTelemetry SDK and the official SDK client.
// - in process, over real HTTP: span names and attributes per method, error.type, the duration histogram;
// - across processes, over stdio and HTTP: one trace from the client's context in params._meta (or the HTTP
//   traceparent header) through the server span to a span the handler opens.
// That a server without telemetry loads no @opentelemetry module is in cold-start-modules.test.ts.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as api from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { otelInProcess } from '../support/otel-in-process.js';
import { waitFor } from '../support/ports.js';
import { rawCall } from '../support/raw-http.js';
import { importCompiled, startScript } from '../support/servers.js';
import { jsonAccessLog } from '../../packages/runtime/src/server/index.js';

const { spans, metricExporter, reader } = otelInProcess();

/** A client span's context as another process would send it. */
function remoteParent(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

type Handlers = Record<string, (...args: never[]) => unknown>;
const serverSpans = () => spans.getFinishedSpans().filter((s) => s.kind === api.SpanKind.SERVER);
const named = (name: string): ReadableSpan => {
  const found = serverSpans().filter((s) => s.name === name);
  expect(found, `${name} among ${serverSpans().map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

describe('server spans and metrics (in process, official client over real HTTP)', () => {
  it('names each span {mcp.method.name} {target} with the convention attributes, parents it on _meta, and records the duration histogram', async () => {
    const { createEverythingServer } = await importCompiled<{ createEverythingServer: (h: Handlers, o: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } }>('everything', 'server.js');
    const { handlers } = await importCompiled<{ handlers: Handlers }>('everything', 'handlers.js');
    let active: string | undefined;
    const traced = {
      ...handlers,
      greet: (args: { name: string }) =>
        api.trace.getTracer('handler').startActiveSpan('inner greet', (span) => {
          active = span.spanContext().spanId;
          span.end();
          return { content: [{ type: 'text', text: `hi ${args.name}` }] };
        }),
    };
    const running = await createEverythingServer(traced as Handlers, { telemetry: api }).listen({ port: 0 });
    const client = new Client({ name: 'otel-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const parent = remoteParent();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      spans.reset();
      await client.callTool({ name: 'greet', arguments: { name: 'Ada' }, _meta: { traceparent: parent.traceparent } });
      await client.callTool({ name: 'test_error_handling', arguments: {} });
      await client.listTools();
      await client.getPrompt({ name: 'test_simple_prompt' });
      await client.readResource({ uri: 'test://static-text' });
      await expect(client.readResource({ uri: 'test://no-such-resource' })).rejects.toThrow();

      const greet = named('tools/call greet');
      expect(greet.kind).toBe(api.SpanKind.SERVER);
      expect(greet.spanContext().traceId).toBe(parent.traceId);
      expect(greet.parentSpanContext?.spanId).toBe(parent.spanId);
      expect(greet.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'greet',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': '2026-07-28',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
      });
      expect(typeof greet.attributes['jsonrpc.request.id']).toBe('string');
      expect(greet.attributes['error.type']).toBeUndefined();
      // The handler's own span is the server span's child.
      const inner = spans.getFinishedSpans().find((s) => s.name === 'inner greet')!;
      expect(inner.spanContext().spanId).toBe(active);
      expect(inner.parentSpanContext?.spanId).toBe(greet.spanContext().spanId);
      expect(inner.spanContext().traceId).toBe(parent.traceId);

      const failed = named('tools/call test_error_handling');
      expect(failed.attributes['error.type']).toBe('tool_error');
      expect(failed.status.code).toBe(api.SpanStatusCode.ERROR);
      expect(named('tools/list').attributes['mcp.method.name']).toBe('tools/list');
      expect(named('prompts/get test_simple_prompt').attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'test_simple_prompt' });
      // The URI is an attribute, never part of the name (cardinality).
      const reads = serverSpans().filter((s) => s.name === 'resources/read');
      expect(reads.map((s) => s.attributes['mcp.resource.uri']).sort()).toEqual(['test://no-such-resource', 'test://static-text']);
      const missing = reads.find((s) => s.attributes['mcp.resource.uri'] === 'test://no-such-resource')!;
      expect(missing.attributes['error.type']).toMatch(/^-32\d{3}$/);
      expect(missing.attributes['rpc.response.status_code']).toBe(missing.attributes['error.type']);
      // Without _meta context and without a traceparent header, a span starts its own trace.
      expect(failed.parentSpanContext).toBeUndefined();

      // The HTTP fast path (plain tools/call once the envelope is known) reads traceparent from node's headers.
      const viaHeader = [remoteParent(), remoteParent(), remoteParent()];
      for (const [i, p] of viaHeader.entries()) {
        const c = rawCall(running.url, 'tools/call', { name: 'greet', arguments: { name: `h${i}` } }, { id: `h${i}`, headers: { traceparent: p.traceparent } });
        expect((await c.response).statusCode).toBe(200);
        await c.closed;
      }
      for (const p of viaHeader) {
        const span = serverSpans().find((s) => s.spanContext().traceId === p.traceId);
        expect(span?.name).toBe('tools/call greet');
        expect(span?.parentSpanContext?.spanId).toBe(p.spanId);
      }

      await reader.forceFlush();
      const metrics = metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
      const histogram = metrics.find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
      expect(histogram.descriptor.unit).toBe('s');
      const points = histogram.dataPoints as { attributes: Record<string, unknown>; value: { count: number; buckets: { boundaries: number[] } } }[];
      const greetPoint = points.find((p) => p.attributes['gen_ai.tool.name'] === 'greet')!;
      expect(greetPoint.value.count).toBe(4);
      expect(greetPoint.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
      expect(greetPoint.attributes).not.toHaveProperty('jsonrpc.request.id'); // low cardinality only
      expect(points.find((p) => p.attributes['gen_ai.tool.name'] === 'test_error_handling')!.attributes['error.type']).toBe('tool_error');
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});

describe('spans of what the SDK answers itself (over HTTP)', () => {
  it('initialize, ping, server/discover and subscriptions/listen each get a server span named by the method, with the convention attributes', async () => {
    const { createEverythingServer } = await importCompiled<{ createEverythingServer: (h: Handlers, o: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } }>('everything', 'server.js');
    const { handlers } = await importCompiled<{ handlers: Handlers }>('everything', 'handlers.js');
    const running = await createEverythingServer(handlers, { telemetry: api }).listen({ port: 0 });
    const client = new Client({ name: 'otel-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    spans.reset();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      const sub = await client.listen({ toolsListChanged: true });
      await sub.close();
      // A legacy client's initialize, its context in the traceparent header.
      const parent = remoteParent();
      const init = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', traceparent: parent.traceparent },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } }),
      });
      expect(init.status).toBe(200);
      await init.text();
      // ping is a legacy method (the 2026 era has none).
      const session = init.headers.get('mcp-session-id');
      const ping = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...(session !== null ? { 'mcp-session-id': session } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'ping-1', method: 'ping' }),
      });
      expect([ping.status, await ping.text()]).toEqual([200, expect.stringContaining('"result":{}')]);

      const byMethod = (method: string) => serverSpans().filter((s) => s.attributes['mcp.method.name'] === method);
      for (const method of ['server/discover', 'ping', 'subscriptions/listen', 'initialize']) {
        const [span] = byMethod(method);
        expect(span, `${method} among ${serverSpans().map((s) => s.name).join(', ')}`).toBeDefined();
        expect(span!.name).toBe(method); // no target: the method alone
        expect(span!.kind).toBe(api.SpanKind.SERVER);
        expect(span!.attributes).toMatchObject({ 'mcp.method.name': method, 'network.transport': 'tcp', 'network.protocol.name': 'http' });
        expect(typeof span!.attributes['jsonrpc.request.id']).toBe('string');
        for (const key of Object.keys(span!.attributes)) expect(['mcp.method.name', 'mcp.protocol.version', 'jsonrpc.request.id', 'network.transport', 'network.protocol.name']).toContain(key);
      }
      expect(byMethod('ping')[0]!.attributes['mcp.protocol.version']).toBe('2025-06-18');
      expect(byMethod('server/discover')[0]!.attributes['mcp.protocol.version']).toBe('2026-07-28');
      const initialize = byMethod('initialize')[0]!;
      expect(initialize.attributes['jsonrpc.request.id']).toBe('init-1');
      expect(initialize.spanContext().traceId).toBe(parent.traceId);
      expect(initialize.parentSpanContext?.spanId).toBe(parent.spanId);
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});

describe('one trace across processes (SDK in the server process, MCPGEN_TELEMETRY=otel)', () => {
  const SCRIPT = join(ROOT, 'test/support/otel-server.mjs');
  const files: string[] = [];
  const spanFile = (name: string) => {
    const f = join(ROOT, `.tmp/otel-spans-${process.pid}-${name}.jsonl`);
    rmSync(f, { force: true });
    files.push(f);
    return f;
  };
  afterAll(() => {
    for (const f of files) rmSync(f, { force: true });
  });
  type Line = { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: Record<string, unknown>; links: string[] };
  const read = (f: string): Line[] => readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);

  /** client span (remote) → server span → handler span, all one trace. */
  function expectChain(lines: Line[], parent: { traceId: string; spanId: string }, transport: string): Line {
    const server = lines.find((l) => l.name === 'tools/call add' && l.traceId === parent.traceId)!;
    expect(server, JSON.stringify(lines)).toBeDefined();
    expect(server.kind).toBe(api.SpanKind.SERVER);
    expect(server.parentSpanId).toBe(parent.spanId);
    expect(server.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'network.transport': transport });
    const inner = lines.find((l) => l.name === 'inner add' && l.parentSpanId === server.spanId)!;
    expect(inner?.traceId).toBe(parent.traceId);
    return server;
  }

  it('over stdio: the context in params._meta is the server span\'s parent', async () => {
    const file = spanFile('stdio');
    const client = new Client({ name: 'otel-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env: { ...process.env, MCPGEN_TELEMETRY: 'otel', OTEL_SPANS_FILE: file } as Record<string, string>, stderr: 'ignore' }));
    const parent = remoteParent();
    try {
      expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: parent.traceparent } })).structuredContent).toEqual({ sum: 3 });
      await waitFor(() => read(file).some((l) => l.name === 'tools/call add'));
    } finally {
      await client.close();
    }
    const server = expectChain(read(file), parent, 'pipe');
    expect(server.attributes).not.toHaveProperty('network.protocol.name');
  });

  it('over HTTP: _meta wins and the traceparent header becomes a link; the header alone is the parent', async () => {
    const file = spanFile('http');
    const server = await startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'otel', OTEL_SPANS_FILE: file, MCPGEN_ACCESS_LOG: 'json' } });
    const viaMeta = remoteParent();
    const viaHeader = remoteParent();
    const client = new Client({ name: 'otel-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { traceparent: viaHeader.traceparent } } }));
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: viaMeta.traceparent } });
      await client.callTool({ name: 'add', arguments: { a: 3, b: 4 } });
      await waitFor(() => read(file).filter((l) => l.name === 'tools/call add').length === 2);
    } finally {
      await client.close();
      await server.stop();
    }
    const lines = read(file);
    const first = expectChain(lines, viaMeta, 'tcp');
    expect(first.links).toEqual([viaHeader.spanId]);
    expectChain(lines, viaHeader, 'tcp');
    // MCPGEN_ACCESS_LOG=json: one JSON line per request on stderr, with the trace id of its span.
    const access = server.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const adds = access.filter((l) => l.tool === 'add');
    expect(adds).toHaveLength(2);
    expect(adds[0]).toMatchObject({ level: 'info', msg: 'mcp request', method: 'tools/call', tool: 'add', outcome: 'ok', transport: 'http', trace_id: viaMeta.traceId });
    expect(adds[1]!.trace_id).toBe(viaHeader.traceId);
    expect(typeof adds[0]!.duration_ms).toBe('number');
    expect(Date.parse(adds[0]!.time as string)).not.toBeNaN();
    expect(adds[0]).not.toHaveProperty('principal'); // no auth: no caller to name
  });

  it('refuses a wrong MCPGEN_TELEMETRY or MCPGEN_ACCESS_LOG value at start: one line, exit 1', async () => {
    await expect(startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'yes' } })).rejects.toThrow(/exited with 1: mcpgen: MCPGEN_TELEMETRY must be otel or off, got "yes"\n$/);
    await expect(startScript(SCRIPT, [], { env: { MCPGEN_ACCESS_LOG: 'text' } })).rejects.toThrow(/exited with 1: mcpgen: MCPGEN_ACCESS_LOG must be json or off, got "text"\n$/);
  });

  it('access log lines name a caller only by a hash of its principal, and errors as warn with their code', () => {
    const out: string[] = [];
    const log = jsonAccessLog((l) => out.push(l));
    log({ method: 'tools/call', id: 7, tool: 'add', durationMs: 1.23456, outcome: 'ok', principalKey: 'alice\u0000client-1', transport: 'http' });
    log({ method: 'resources/read', uri: 'x://y', durationMs: 2, outcome: 'error', errorCode: -32602, principalKey: '', transport: 'stdio' });
    const [ok, failed] = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(ok).toMatchObject({ request_id: '7', duration_ms: 1.235, principal: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(out[0]).not.toContain('alice');
    expect(out[0]).not.toContain('client-1');
    expect(failed).toMatchObject({ level: 'warn', outcome: 'error', error_code: -32602, uri: 'x://y', transport: 'stdio' });
    expect(failed).not.toHaveProperty('principal');
  });
});
