// The generated weather server with the real OpenTelemetry SDK registered (as an application would with
// `node --import ./otel.js main.js`) and MCPGEN_TELEMETRY=otel: finished spans go to $OTEL_SPANS_FILE, one
// JSON object a line; or, with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set, the real OTLP/HTTP exporter behind a
// batch processor (the SDK reads the endpoint itself). The `add` handler opens a span of its own, so a test
// can see it under the server span. OTEL_FIXTURE=jobs serves the generated jobs server (task tools) instead.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { createMcpgenServer, runMain, serverOptionsFromEnv } from '@mcpgen/runtime/server';

const out = process.env.OTEL_SPANS_FILE;
const fileExporter = {
  export(spans, done) {
    for (const s of spans) {
      const line = { name: s.name, kind: s.kind, traceId: s.spanContext().traceId, spanId: s.spanContext().spanId, parentSpanId: s.parentSpanContext?.spanId, attributes: s.attributes, status: s.status, links: s.links.map((l) => l.context.spanId) };
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    }
    done({ code: 0 });
  },
  shutdown: async () => {},
};
const processor = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? new BatchSpanProcessor(new OTLPTraceExporter(), { scheduledDelayMillis: 50 }) : new SimpleSpanProcessor(fileExporter);
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

const compiled = join(import.meta.dirname, '../../.tmp/compiled');
/** The weather server, its `add` handler opening a span of its own. */
async function weather() {
  const { createWeatherServer } = await import(join(compiled, 'weather/server.js'));
  const handlers = {
    getForecast: () => ({ city: 'x', days: [] }),
    getAlerts: () => ({ alerts: [] }),
    add: ({ a, b }) => trace.getTracer('handler').startActiveSpan('inner add', (span) => {
      span.end();
      return { sum: a + b };
    }),
  };
  return createWeatherServer(handlers, await serverOptionsFromEnv('weather'));
}
/** The jobs server as generated (its tools run as tasks). */
async function jobs() {
  const { definition } = await import(join(compiled, 'jobs/definition.js'));
  const { handlers } = await import(join(compiled, 'jobs/handlers.js'));
  return createMcpgenServer(definition, handlers, await serverOptionsFromEnv('jobs'));
}
await runMain(await (process.env.OTEL_FIXTURE === 'jobs' ? jobs() : weather()), process.argv.slice(2));
