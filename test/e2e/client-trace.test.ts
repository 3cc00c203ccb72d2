// Issue 30 item 1, the client half: the generated client's CLIENT spans, with the real OpenTelemetry Node SDK
// (NodeTracerProvider, BatchSpanProcessor, the OTLP/HTTP exporter) in this process and in the server's, both
// exporting to one OTLP/HTTP receiver on 127.0.0.1. One trace must hold the application's span, the generated
// client's span, the server span and the span the handler opens, over HTTP and over stdio. Attribute names
// per semantic-conventions-genai docs/gen-ai/mcp.md (client span: kind CLIENT, `{mcp.method.name} {target}`).
import { join } from 'node:path';
import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { OTLP_KIND, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { waitFor } from '../support/ports.js';
import { importCompiled, startScript } from '../support/servers.js';

const SCRIPT = join(ROOT, 'test/support/otel-server.mjs');

type Weather = { add(args: { a: number; b: number }): Promise<{ structuredContent: unknown; isError: boolean }>; listAllTools(): Promise<unknown[]>; close(): Promise<void> };
type WeatherClientClass = { connect(target: object, options?: object): Promise<Weather> };

let receiver: OtlpReceiver;
let provider: NodeTracerProvider;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url }), { scheduledDelayMillis: 50 })] });
  provider.register(); // global tracer provider, AsyncLocalStorage context manager, W3C propagators
});

afterAll(async () => {
  await provider.shutdown();
  await receiver.close();
});

/** Call `add` inside an application span; returns that span's trace and span ids. */
async function addInsideAppSpan(client: Weather): Promise<{ traceId: string; spanId: string }> {
  return api.trace.getTracer('app').startActiveSpan('app work', async (span) => {
    try {
      expect((await client.add({ a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
      return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    } finally {
      span.end();
    }
  });
}

/** app span → generated client span (CLIENT) → server span (SERVER) → handler span, one trace. */
async function expectOneTrace(app: { traceId: string; spanId: string }): Promise<{ client: ReceivedSpan; server: ReceivedSpan }> {
  await provider.forceFlush();
  const inTrace = () => receiver.spans.filter((s) => s.traceId === app.traceId);
  await waitFor(() => inTrace().some((s) => s.name === 'inner add') && inTrace().some((s) => s.kind === OTLP_KIND.CLIENT));
  const spans = inTrace();
  const show = JSON.stringify(spans.map((s) => [s.name, s.kind, s.spanId, s.parentSpanId]));
  const client = spans.find((s) => s.kind === OTLP_KIND.CLIENT && s.name === 'tools/call add');
  expect(client, show).toBeDefined();
  expect(client!.parentSpanId).toBe(app.spanId);
  const server = spans.find((s) => s.kind === OTLP_KIND.SERVER && s.name === 'tools/call add');
  expect(server?.parentSpanId, show).toBe(client!.spanId);
  const inner = spans.find((s) => s.name === 'inner add');
  expect(inner?.parentSpanId, show).toBe(server!.spanId);
  expect(client!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': '2026-07-28' });
  expect(typeof client!.attributes['jsonrpc.request.id']).toBe('string');
  expect(client!.attributes).not.toHaveProperty('error.type');
  return { client: client!, server: server! };
}

describe('one trace from the generated client through the server to the handler (OTLP/HTTP receiver on 127.0.0.1)', () => {
  it('over HTTP', async () => {
    const { WeatherClient } = await importCompiled<{ WeatherClient: WeatherClientClass }>('weather', 'client.js');
    const server = await startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'otel', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url } });
    const client = await WeatherClient.connect({ url: server.url }, { negotiation: 'modern', telemetry: api });
    try {
      const app = await addInsideAppSpan(client);
      const { client: span } = await expectOneTrace(app);
      const port = Number(new URL(server.url).port);
      expect(span.attributes).toMatchObject({ 'network.transport': 'tcp', 'network.protocol.name': 'http', 'server.address': '127.0.0.1', 'server.port': port });
      // Requests other than tools/call are traced too, named by method alone.
      await client.listAllTools();
      await provider.forceFlush();
      await waitFor(() => receiver.spans.some((s) => s.kind === OTLP_KIND.CLIENT && s.name === 'tools/list'));
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('over stdio', async () => {
    const { WeatherClient } = await importCompiled<{ WeatherClient: WeatherClientClass }>('weather', 'client.js');
    const env = { ...process.env, MCPGEN_TELEMETRY: 'otel', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url } as Record<string, string>;
    const client = await WeatherClient.connect({ command: process.execPath, args: [SCRIPT], env }, { telemetry: api });
    try {
      const app = await addInsideAppSpan(client);
      const { client: span, server } = await expectOneTrace(app);
      expect(span.attributes['network.transport']).toBe('pipe');
      expect(span.attributes).not.toHaveProperty('server.address');
      expect(server.attributes['network.transport']).toBe('pipe');
    } finally {
      await client.close();
    }
  });

  it('a client without telemetry sends no trace context', async () => {
    const { WeatherClient } = await importCompiled<{ WeatherClient: WeatherClientClass }>('weather', 'client.js');
    const server = await startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'otel', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url } });
    const client = await WeatherClient.connect({ url: server.url }, { negotiation: 'modern' });
    try {
      const app = await addInsideAppSpan(client);
      await waitFor(() => receiver.spans.some((s) => s.name === 'inner add' && s.traceId !== app.traceId && receiver.spans.some((p) => p.spanId === s.parentSpanId && p.kind === OTLP_KIND.SERVER)));
      // The server started a trace of its own: nothing of the application's context reached it.
      expect(receiver.spans.filter((s) => s.traceId === app.traceId && s.kind === OTLP_KIND.SERVER)).toEqual([]);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
