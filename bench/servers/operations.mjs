// The generated weather server for bench/operations.mjs. BENCH_OTEL_SDK=1 registers the real OpenTelemetry
// SDK (batch span processor, an exporter that drops spans, a metric reader) as an application would;
// MCPGEN_TELEMETRY and MCPGEN_RATE_LIMIT* come from the environment through serverOptionsFromEnv.
import { join } from 'node:path';
import { runMain, serverOptionsFromEnv } from '@mcpgen/runtime/server';

// BENCH_OTEL_SDK=context registers only the context manager (AsyncLocalStorage) and the propagator: what the
// SDK's context tracking costs on its own, spans and metrics being no-ops.
if (process.env.BENCH_OTEL_SDK === '1' || process.env.BENCH_OTEL_SDK === 'context') {
  const { context, metrics, propagation, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  if (process.env.BENCH_OTEL_SDK === '1') {
    const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const { MeterProvider, PeriodicExportingMetricReader, InMemoryMetricExporter, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
    const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }));
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA), exportIntervalMillis: 1000 })] }));
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
const { createWeatherServer } = await import(join(import.meta.dirname, '../../.tmp/compiled/weather/server.js'));
const handlers = { getForecast: () => ({ city: 'x', days: [] }), getAlerts: () => ({ alerts: [] }), add: ({ a, b }) => ({ sum: a + b }) };
await runMain(createWeatherServer(handlers, await serverOptionsFromEnv('weather')), process.argv.slice(2));
