// Metrics beside the spans of telemetry.ts, through the same optional `@opentelemetry/api` (only when
// ServerOptions.telemetry is given): rate-limit refusals (a counter), and two gauges as up-down counters —
// the tasks running on this instance and the `subscriptions/listen` streams open on its HTTP face. The
// conventions for MCP define none of them, hence the `mcpgen.` prefix.
import type { RateLimiter } from './rate-limit.js';
import type { OpenTelemetryApi } from './telemetry.js';

/** The meter members used here (the `@opentelemetry/api` module satisfies it). */
type OtelMeterApi = Pick<OpenTelemetryApi, 'metrics'>;

export interface ServerMetrics {
  /** The limiter, counting each refusal (`scope`, and the tool for a tool's own limit). */
  countRefusals(limiter: RateLimiter): RateLimiter;
  /** Report `running()` as the running-tasks gauge. */
  observeTasks(running: () => number): void;
  /** The response, counted as an open listen stream until its body ends or is cancelled, when it is one. */
  countListenStream(request: Request, response: Response): Response;
}

export function createServerMetrics(api: OtelMeterApi): ServerMetrics {
  // One meter for every server in the process (no per-server version): the task gauge sums across them.
  const meter = api.metrics.getMeter('@mcpgen/runtime');
  const refusals = meter.createCounter('mcpgen.server.rate_limit.refusals', { description: 'Requests refused by a rate limit (429 over HTTP, the JSON-RPC error on stdio).', unit: '{request}' });
  const streams = meter.createUpDownCounter('mcpgen.server.listen.streams', { description: 'subscriptions/listen streams open on this instance (HTTP).', unit: '{stream}' });
  const taskCounts = runningTaskCounts(meter);
  return {
    countRefusals: (limiter) => ({
      tools: limiter.tools,
      close: () => limiter.close(),
      async check(caller, tool) {
        const refused = await limiter.check(caller, tool);
        if (refused !== undefined) refusals.add(1, { scope: refused.scope, ...(refused.scope === 'tool' && tool !== undefined ? { 'gen_ai.tool.name': tool } : {}) });
        return refused;
      },
    }),
    observeTasks: (running) => taskCounts.add(running),
    countListenStream(request, response) {
      const body = response.body;
      if (body === null || request.headers.get('mcp-method')?.trim() !== 'subscriptions/listen' || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      streams.add(1);
      let open = true;
      const ended = () => {
        if (open) streams.add(-1);
        open = false;
      };
      const reader = body.getReader();
      const counted = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await reader.read().catch((e: unknown) => (ended(), Promise.reject(e)));
          if (next.done) {
            ended();
            controller.close();
          } else controller.enqueue(next.value);
        },
        cancel(reason) {
          ended();
          return reader.cancel(reason);
        },
      });
      return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
  };
}

type Meter = ReturnType<OpenTelemetryApi['metrics']['getMeter']>;
const taskGauges = new WeakMap<Meter, Set<() => number>>();

/**
 * The task counts of every server in this process, reported as one sum: two callbacks observing the same
 * instrument with the same attributes would overwrite each other (the SDK keeps the last observation).
 */
function runningTaskCounts(meter: Meter): Set<() => number> {
  let counts = taskGauges.get(meter);
  if (counts === undefined) {
    const all = new Set<() => number>();
    counts = all;
    taskGauges.set(meter, all);
    const gauge = meter.createObservableUpDownCounter('mcpgen.server.tasks.running', { description: 'Task handlers running in this process.', unit: '{task}' });
    gauge.addCallback((result) => result.observe([...all].reduce((n, running) => n + running(), 0)));
  }
  return counts;
}
