// The real OpenTelemetry SDK registered in the test's own process: finished spans and metrics kept in
// memory (the in-memory exporters), the async-hooks context manager and the W3C propagator. Call once at
// the top of a test file (each file runs in a worker of its own, so the global providers are its own).
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { beforeAll } from 'vitest';

export function otelInProcess(): { spans: InMemorySpanExporter; metricExporter: InMemoryMetricExporter; reader: PeriodicExportingMetricReader } {
  const spans = new InMemorySpanExporter();
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
  beforeAll(() => {
    api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  return { spans, metricExporter, reader };
}
