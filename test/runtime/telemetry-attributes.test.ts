// The span name and attribute sets Telemetry.serve caches per method, target, protocol version and transport
// (ops/telemetry.ts AttributeCache): each combination gets its own, past the cache's cap too (the version is
// the client's), and the histogram sees the same set as the span. A recording stand-in for @opentelemetry/api.
import { describe, expect, it } from 'vitest';
import { createTelemetry, type OpenTelemetryApi } from '../../packages/runtime/src/server/ops/telemetry.js';

type Started = { name: string; attributes: Record<string, unknown>; set: Record<string, unknown> };

function recordingApi(): { api: OpenTelemetryApi; spans: Started[]; records: Record<string, unknown>[] } {
  const spans: Started[] = [];
  const records: Record<string, unknown>[] = [];
  const ROOT = {};
  const api = {
    trace: {
      getTracer: () => ({
        startSpan: (name: string, options: { attributes: Record<string, unknown> }) => {
          const started: Started = { name, attributes: options.attributes, set: {} };
          spans.push(started);
          return { setAttribute: (k: string, v: unknown) => void (started.set[k] = v), setStatus: () => {}, end: () => {} };
        },
      }),
      setSpan: (context: object) => context,
      getSpanContext: () => undefined,
    },
    context: { with: <R>(_c: object, fn: () => R) => fn(), active: () => ROOT },
    propagation: { extract: (c: object) => c },
    metrics: { getMeter: () => ({ createHistogram: () => ({ record: (_v: number, a: Record<string, unknown>) => void records.push(a) }) }) },
    ROOT_CONTEXT: ROOT,
    SpanKind: { SERVER: 1 },
    SpanStatusCode: { ERROR: 2 },
  } as unknown as OpenTelemetryApi;
  return { api, spans, records };
}

const ok = async () => ({ content: [] });

describe('Telemetry.serve attribute sets', () => {
  it('one name and attribute set per method, target, version and transport; the histogram records the span\'s set', async () => {
    const { api, spans, records } = recordingApi();
    const telemetry = createTelemetry(api, { name: 't', version: '1' });
    const header = (name: string) => (name === 'mcp-protocol-version' ? '2025-06-18' : undefined);
    await telemetry.serve({ method: 'tools/call', id: 1, tool: 'add', meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }, ok);
    await telemetry.serve({ method: 'tools/call', id: 2, tool: 'add', header }, ok);
    await telemetry.serve({ method: 'prompts/get', id: 3, prompt: 'add' }, ok);
    await telemetry.serve({ method: 'ping', id: 'p' }, ok);
    await telemetry.serve({ method: 'tools/call', id: 4, tool: 'add', meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }, ok);
    expect(spans.map((s) => s.name)).toEqual(['tools/call add', 'tools/call add', 'prompts/get add', 'ping', 'tools/call add']);
    expect(spans[0]!.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2026-07-28', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'pipe' });
    expect(spans[1]!.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2025-06-18', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
    expect(spans[2]!.attributes).toEqual({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'add', 'network.transport': 'pipe' });
    expect(spans[3]!.attributes).toEqual({ 'mcp.method.name': 'ping', 'network.transport': 'pipe' });
    expect(spans[4]!.attributes).toBe(spans[0]!.attributes); // cached: one object for the same combination
    expect(spans.map((s) => s.set['jsonrpc.request.id'])).toEqual(['1', '2', '3', 'p', '4']);
    expect(records).toHaveLength(5);
    records.forEach((r, i) => expect(r).toBe(spans[i]!.attributes));
  });

  it('past the cap (the client picks the version) each request still gets its own version\'s set', async () => {
    const { api, spans } = recordingApi();
    const telemetry = createTelemetry(api, { name: 't', version: '1' });
    for (let i = 0; i < 600; i++) await telemetry.serve({ method: 'tools/list', id: i, meta: { 'io.modelcontextprotocol/protocolVersion': `v${i}` } }, ok);
    expect(spans.map((s) => s.attributes['mcp.protocol.version'])).toEqual(Array.from({ length: 600 }, (_, i) => `v${i}`));
    await telemetry.serve({ method: 'tools/list', id: 'again', meta: { 'io.modelcontextprotocol/protocolVersion': 'v3' } }, ok);
    expect(spans.at(-1)!.attributes).toBe(spans[3]!.attributes);
  });
});
