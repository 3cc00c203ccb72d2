// Issue 46 defect 1: a tools/call that creates a task is a success — the client got its CreateTaskResult —
// so its access-log line says "ok", its server span has no ERROR status nor error.type, and the
// mcp.server.operation.duration histogram records it without error.type. Over HTTP in process (the real
// OpenTelemetry SDK's in-memory exporters) and over stdio in a process of its own (test/support/otel-server.mjs).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as api from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import type { JobsHandlers } from '../../generated/jobs/server.js';
import { jsonAccessLog } from '../../packages/runtime/src/server/index.js';
import { ROOT } from '../support/root.js';
import { otelInProcess } from '../support/otel-in-process.js';
import { waitFor } from '../support/ports.js';
import { importCompiled } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');
const { spans, metricExporter, reader } = otelInProcess();

describe('a task-creating tools/call is a success in the access log, the span and the histogram', () => {
  it('over HTTP (in process)', async () => {
    const { createJobsServer } = await importCompiled<{ createJobsServer: (h: JobsHandlers, o: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } }>('jobs', 'server.js');
    const { handlers } = await importCompiled<{ handlers: JobsHandlers }>('jobs', 'handlers.js');
    const lines: string[] = [];
    const running = await createJobsServer(handlers, { telemetry: api, accessLog: jsonAccessLog((l) => lines.push(l)) }).listen({ port: 0 });
    const client = await JobsClient.connect({ url: running.url });
    try {
      spans.reset();
      const { task } = await client.startTask('render', { frames: 1, frameMs: 1 });
      expect(task).toBeDefined();
      expect((await task!.result()).structuredContent).toMatchObject({ frames: 1 });
    } finally {
      await client.close();
      await running.close(500);
    }
    const calls = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.method === 'tools/call');
    expect(calls).toEqual([expect.objectContaining({ tool: 'render', outcome: 'ok', level: 'info' })]);
    const span = spans.getFinishedSpans().find((s) => s.name === 'tools/call render')!;
    expect(span.status.code).not.toBe(api.SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBeUndefined();
    await reader.forceFlush();
    const metric = metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)).find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
    const points = (metric.dataPoints as { attributes: Record<string, unknown> }[]).filter((p) => p.attributes['gen_ai.tool.name'] === 'render');
    expect(points.map((p) => p.attributes['error.type'])).toEqual([undefined]);
  });

  it('over stdio (the SDK in the server process, MCPGEN_TELEMETRY=otel, MCPGEN_ACCESS_LOG=json)', async () => {
    const file = join(ROOT, `.tmp/otel-spans-${process.pid}-task-outcomes.jsonl`);
    rmSync(file, { force: true });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'test/support/otel-server.mjs')],
      env: { ...process.env, OTEL_FIXTURE: 'jobs', MCPGEN_TELEMETRY: 'otel', MCPGEN_ACCESS_LOG: 'json', OTEL_SPANS_FILE: file } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = await JobsClient.connect({ transport });
    type Line = { name: string; attributes: Record<string, unknown>; status: { code: number } };
    const read = (): Line[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);
    let lines: Line[] = [];
    try {
      const { task } = await client.startTask('render', { frames: 1, frameMs: 1 });
      await task!.result();
      await waitFor(() => read().some((l) => l.name === 'tools/call render') && stderr.includes('"tool":"render"'));
      lines = read();
    } finally {
      await client.close();
      rmSync(file, { force: true });
    }
    const access = stderr.split('\n').filter((l) => l.includes('"tool":"render"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(access).toEqual([expect.objectContaining({ method: 'tools/call', outcome: 'ok', transport: 'stdio' })]);
    const span = lines.find((l) => l.name === 'tools/call render')!;
    expect(span.status.code).not.toBe(api.SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBeUndefined();
  });
});
