// Issue 30 item 2: the server's metrics besides the duration histogram, with the real OpenTelemetry metrics
// SDK, real HTTP and the official SDK client: rate-limit refusals counted (scope, tool), the running-tasks
// gauge and the open subscriptions/listen streams gauge (up-down counters).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as api from '@opentelemetry/api';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/ports.js';
import { importCompiled } from '../support/servers.js';
import { createRateLimiter } from '../../packages/runtime/src/server/index.js';

class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
const reader = new TestReader();
const spans = new InMemorySpanExporter();

beforeAll(() => {
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
});

type Point = { attributes: Record<string, unknown>; value: number };
async function points(name: string): Promise<Point[]> {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
  const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name);
  return metrics.flatMap((m) => m.dataPoints as unknown as Point[]);
}
const total = async (name: string) => (await points(name)).reduce((n, p) => n + p.value, 0);

type Running = { url: string; close(ms?: number): Promise<void> };
type Factory = (handlers: object, options: object) => { listen(o: object): Promise<Running> };

function client(): Client {
  return new Client({ name: 'metrics-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

describe('server metrics (MCPGEN_TELEMETRY / ServerOptions.telemetry)', () => {
  it('counts rate-limit refusals by scope and tool', async () => {
    const { createWeatherServer } = await importCompiled<{ createWeatherServer: Factory }>('weather', 'server.js');
    const { handlers } = await importCompiled<{ handlers: object }>('weather', 'handlers.js');
    const rateLimiter = await createRateLimiter({ server: { points: 3, durationSeconds: 60 }, tools: { add: { points: 1, durationSeconds: 60 } } }, 'weather-metrics');
    const running = await createWeatherServer(handlers, { telemetry: api, rateLimiter }).listen({ port: 0 });
    const c = client();
    try {
      await c.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      await c.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      // Then past the tool's limit once, and calls of another tool until the server-wide limit refuses one.
      const seen = { tool: 0, server: 0 };
      const call = (name: string, args: Record<string, unknown>) =>
        c.callTool({ name, arguments: args }).then(
          () => undefined,
          (e: unknown) => {
            const scope = /"scope":"(\w+)"/.exec(String(e))?.[1] as 'tool' | 'server';
            seen[scope]++;
          },
        );
      await call('add', { a: 1, b: 2 });
      for (let i = 0; i < 10 && seen.server === 0; i++) await call('get_alerts', { state: 'CA' });
      expect(seen).toEqual({ tool: 1, server: 1 });
      const refused = await points('mcpgen.server.rate_limit.refusals');
      expect(refused.find((p) => p.attributes.scope === 'tool')).toMatchObject({ value: 1, attributes: { 'gen_ai.tool.name': 'add' } });
      expect(refused.filter((p) => p.attributes.scope === 'server').map((p) => p.attributes)).toEqual([{ scope: 'server' }]);
      expect(refused.find((p) => p.attributes.scope === 'server')?.value).toBe(1);
    } finally {
      await c.close();
      await running.close(500);
    }
  });

  it('reports open listen streams and running tasks as gauges; task methods get server spans', async () => {
    const { createJobsServer } = await importCompiled<{ createJobsServer: Factory }>('jobs', 'server.js');
    const { handlers } = await importCompiled<{ handlers: object }>('jobs', 'handlers.js');
    const { JobsClient } = await importCompiled<{ JobsClient: { connect(t: object, o?: object): Promise<{ render(a: object): Promise<unknown>; close(): Promise<void> }> } }>('jobs', 'client.js');
    const { createEverythingServer } = await importCompiled<{ createEverythingServer: Factory }>('everything', 'server.js');
    const everything = await importCompiled<{ handlers: object }>('everything', 'handlers.js');
    const jobs = await createJobsServer(handlers, { telemetry: api }).listen({ port: 0 });
    const listening = await createEverythingServer(everything.handlers, { telemetry: api }).listen({ port: 0 });
    const jobsClient = await JobsClient.connect({ url: jobs.url }, { negotiation: 'modern' });
    const c = client();
    try {
      expect(await total('mcpgen.server.tasks.running')).toBe(0);
      const rendering = jobsClient.render({ frames: 20, frameMs: 50 });
      await waitFor(async () => (await total('mcpgen.server.tasks.running')) === 1);
      await rendering;
      expect(await total('mcpgen.server.tasks.running')).toBe(0);
      // The task methods (registered by the runtime, not the SDK) have server spans too: the client polled.
      const polls = spans.getFinishedSpans().filter((s) => s.name === 'tasks/get' && s.kind === api.SpanKind.SERVER);
      expect(polls.length).toBeGreaterThan(0);
      expect(polls[0]!.attributes['mcp.method.name']).toBe('tasks/get');

      await c.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
      expect(await total('mcpgen.server.listen.streams')).toBe(0);
      const sub = await c.listen({ toolsListChanged: true });
      expect(await total('mcpgen.server.listen.streams')).toBe(1);
      await sub.close();
      await waitFor(async () => (await total('mcpgen.server.listen.streams')) === 0);
    } finally {
      await jobsClient.close();
      await c.close();
      await jobs.close(500);
      await listening.close(500);
    }
  });
});
