// Issue 30: what one server span costs with the real OpenTelemetry SDK, in process (no HTTP): the runtime's
// Telemetry.serve against the least any instrumentation following the conventions must do — startSpan with
// the same six attributes, the request id, context.with, end, one histogram record — so what is left above
// that floor is ours, and the floor itself is the SDK's — split into its parts (the span alone, the histogram
// record alone, context.with alone) so a server-side profile can be read against them. Needs `npm run build`.
// Usage: node bench/otel-span-cost.mjs   (BENCH_N, default 200000)
import { join } from 'node:path';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const N = Number(process.env.BENCH_N ?? 200_000);
const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }));
api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA), exportIntervalMillis: 1000 })] }));
api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const { createTelemetry } = await import(join(import.meta.dirname, '../packages/runtime/dist/server/ops/telemetry.js'));

const telemetry = createTelemetry(api, { name: 'bench', version: '1' });
const headers = { 'mcp-protocol-version': '2026-07-28' };
const header = (name) => headers[name];
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const handler = async () => ({ content: [] });
const tracer = api.trace.getTracer('floor');
const histogram = api.metrics.getMeter('floor').createHistogram('floor.duration');
const ATTRIBUTES = Object.freeze({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2026-07-28', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
const floor = async () => {
  const span = tracer.startSpan('tools/call add', { kind: api.SpanKind.SERVER, attributes: ATTRIBUTES }, api.ROOT_CONTEXT);
  span.setAttribute('jsonrpc.request.id', '1');
  const result = await api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, span), handler);
  span.end();
  histogram.record(0.001, ATTRIBUTES);
  return result;
};
const root = api.ROOT_CONTEXT;
const spanAlone = () => {
  const span = tracer.startSpan('tools/call add', { kind: api.SpanKind.SERVER, attributes: ATTRIBUTES }, root);
  span.setAttribute('jsonrpc.request.id', '1');
  span.end();
};
const CASES = {
  'handler alone': handler,
  'SDK span alone: startSpan (6 attributes) + request id + end': async () => spanAlone(),
  'SDK histogram record alone (the same 6 attributes)': async () => histogram.record(0.001, ATTRIBUTES),
  'context.with alone (AsyncLocalStorage)': () => api.context.with(root, handler),
  'floor: SDK span + histogram, same attributes': floor,
  'Telemetry.serve (the runtime)': () => telemetry.serve({ method: 'tools/call', id: 1, meta, header, tool: 'add' }, handler),
};
const results = Object.fromEntries(Object.keys(CASES).map((k) => [k, []]));
for (let round = 0; round < 3; round++) {
  for (const [name, run] of Object.entries(CASES)) {
    for (let i = 0; i < N / 10; i++) await run();
    // CPU time of this process (user + system), not wall time: other load on a shared machine moves it least.
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await run();
    const used = process.cpuUsage(t0);
    results[name].push((used.user + used.system) / N);
  }
}
console.log(`| case (N=${N}, median of 3) | CPU µs per request |\n| --- | --- |`);
for (const [name, xs] of Object.entries(results)) console.log(`| ${name} | ${[...xs].sort((a, b) => a - b)[1].toFixed(2)} |`);
process.exit(0); // the batch processor's and the metric reader's timers
