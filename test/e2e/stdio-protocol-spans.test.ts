// Issue 30: what the SDK answers itself over stdio — initialize, ping, server/discover, subscriptions/listen —
// gets a SERVER span as over HTTP (test/e2e/telemetry.test.ts), made at the wire (transport/stdio-spans.ts);
// so does a client notification, on both transports (the conventions' server span covers "the MCP request
// or notification initiated by the peer").
// The generated weather server runs in its own process with the OpenTelemetry SDK (batch processor, OTLP/HTTP
// exporter) and MCPGEN_TELEMETRY=otel, driven over real stdio by the official client; its spans arrive at an
// OTLP/HTTP receiver on 127.0.0.1. Attribute names per semantic-conventions-genai docs/gen-ai/mcp.md
// (server span: `jsonrpc.request.id`, `mcp.method.name`, `mcp.protocol.version`, `network.transport=pipe`).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { OTLP_KIND, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { waitFor } from '../support/ports.js';
import { importCompiled, startScript } from '../support/servers.js';

const SCRIPT = join(ROOT, 'test/support/otel-server.mjs');
const ALLOWED = ['mcp.method.name', 'mcp.protocol.version', 'jsonrpc.request.id', 'network.transport', 'error.type', 'rpc.response.status_code'];

let receiver: OtlpReceiver;
beforeAll(async () => {
  await importCompiled('weather', 'server.js'); // the script serves the compiled weather package
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

function remoteParent(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** A stdio connection to the script with the SDK exporting to the receiver; `pin` for the 2026-07-28 era. */
async function connect(pin?: string): Promise<Client> {
  const client = new Client({ name: 'otel-stdio', version: '1' }, pin === undefined ? {} : { versionNegotiation: { mode: { pin } } });
  const env = { ...process.env, MCPGEN_TELEMETRY: 'otel', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env, stderr: 'ignore' }));
  return client;
}

const serverSpans = (method: string): ReceivedSpan[] => receiver.spans.filter((s) => s.kind === OTLP_KIND.SERVER && s.attributes['mcp.method.name'] === method);

function expectProtocolSpan(span: ReceivedSpan | undefined, method: string, transport: 'pipe' | 'tcp' = 'pipe'): ReceivedSpan {
  expect(span, `${method} among ${receiver.spans.map((s) => s.name).join(', ')}`).toBeDefined();
  expect(span!.name).toBe(method); // no target: the method alone
  expect(span!.attributes).toMatchObject({ 'mcp.method.name': method, 'network.transport': transport });
  if (transport === 'pipe') expect(span!.attributes).not.toHaveProperty('network.protocol.name');
  else expect(span!.attributes['network.protocol.name']).toBe('http');
  // A notification has no id, and the conventions want no jsonrpc.request.id then.
  if (method.startsWith('notifications/')) expect(span!.attributes).not.toHaveProperty('jsonrpc.request.id');
  else expect(typeof span!.attributes['jsonrpc.request.id']).toBe('string');
  for (const key of Object.keys(span!.attributes)) expect([...ALLOWED, 'network.protocol.name']).toContain(key);
  return span!;
}

describe('protocol spans over stdio (OTLP/HTTP receiver on 127.0.0.1)', () => {
  it('a 2025-11-25 client: initialize, notifications/initialized and ping, the parent of ping taken from params._meta', async () => {
    const client = await connect();
    const parent = remoteParent();
    try {
      await client.ping();
      await client.request({ method: 'ping', params: { _meta: { traceparent: parent.traceparent } } });
      await waitFor(() => serverSpans('ping').length === 2 && serverSpans('initialize').length > 0 && serverSpans('notifications/initialized').length > 0);
    } finally {
      await client.close();
    }
    expectProtocolSpan(serverSpans('initialize')[0], 'initialize');
    expectProtocolSpan(serverSpans('notifications/initialized')[0], 'notifications/initialized');
    const traced = expectProtocolSpan(serverSpans('ping').find((s) => s.traceId === parent.traceId), 'ping');
    expect(traced.parentSpanId).toBe(parent.spanId);
    const own = serverSpans('ping').find((s) => s.traceId !== parent.traceId)!;
    expect(own.parentSpanId).toBeUndefined(); // no context in _meta: a trace of its own
  });

  it('a 2026-07-28 client: server/discover and subscriptions/listen (ends when its stream opens), with the protocol version', async () => {
    const client = await connect('2026-07-28');
    const parent = remoteParent();
    try {
      await client.request({ method: 'server/discover', params: { _meta: { traceparent: parent.traceparent } } });
      const sub = await client.listen({ toolsListChanged: true });
      // The listen span ends at the acknowledgement, while the stream stays open.
      await waitFor(() => serverSpans('subscriptions/listen').length === 1 && serverSpans('server/discover').some((s) => s.traceId === parent.traceId));
      await sub.close();
    } finally {
      await client.close();
    }
    const discover = expectProtocolSpan(serverSpans('server/discover').find((s) => s.traceId === parent.traceId), 'server/discover');
    expect(discover.parentSpanId).toBe(parent.spanId);
    expect(discover.attributes['mcp.protocol.version']).toBe('2026-07-28');
    const listen = expectProtocolSpan(serverSpans('subscriptions/listen')[0], 'subscriptions/listen');
    expect(listen.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(listen.attributes).not.toHaveProperty('error.type');
  });

  it('over HTTP too: a client notification gets its span, without a request id', async () => {
    const before = serverSpans('notifications/initialized').length;
    const server = await startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'otel', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url } });
    const client = new Client({ name: 'otel-http', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await waitFor(() => serverSpans('notifications/initialized').length > before && serverSpans('initialize').some((s) => s.attributes['network.transport'] === 'tcp'));
    } finally {
      await client.close();
      await server.stop();
    }
    expectProtocolSpan(serverSpans('notifications/initialized').at(-1), 'notifications/initialized', 'tcp');
  });
});
