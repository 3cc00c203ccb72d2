// Issue 46 defect 4: a request an HTTP face refuses for a rate limit still gets its access-log line and its
// server span (error.type 429), as over stdio; the generated client throws a typed RateLimitError with
// retryAfter (seconds) rather than the SDK's CLIENT_HTTP_NOT_IMPLEMENTED carrying the raw JSON-RPC body.
// The weather server with the real OpenTelemetry SDK in its process (test/support/otel-server.mjs).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import type { WeatherClient as WeatherClientType } from '../../generated/weather/client.js';
import { ProtocolError, RateLimitError } from '@mcpgen/runtime-client';
import { ROOT } from '../support/root.js';
import { waitFor } from '../support/ports.js';
import { rawCall } from '../support/raw-http.js';
import { importCompiled, startScript } from '../support/servers.js';

const { WeatherClient } = await importCompiled<{ WeatherClient: typeof WeatherClientType }>('weather', 'client.js');
const SCRIPT = join(ROOT, 'test/support/otel-server.mjs');
const files: string[] = [];
afterAll(() => {
  for (const f of files) rmSync(f, { force: true });
});
type Span = { name: string; attributes: Record<string, unknown>; status: { code: number } };
const spansIn = (file: string): Span[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Span);
const accessLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('"msg":"mcp request"')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('rate-limited requests are observed and typed', () => {
  it('HTTP: every refused call (fast path and SDK path) has an access-log line and a span; the client throws RateLimitError', async () => {
    const file = join(ROOT, `.tmp/otel-spans-${process.pid}-rate-limit.jsonl`);
    rmSync(file, { force: true });
    files.push(file);
    const server = await startScript(SCRIPT, [], { env: { MCPGEN_TELEMETRY: 'otel', MCPGEN_ACCESS_LOG: 'json', OTEL_SPANS_FILE: file, MCPGEN_RATE_LIMIT_TOOLS: 'add=2/60' } });
    const client = await WeatherClient.connect({ url: server.url });
    try {
      // The raw calls: the first goes through the SDK path (new envelope), the next through the fast path.
      for (const id of ['a', 'b', 'c']) {
        const c = rawCall(server.url, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, { id });
        await c.response;
        await c.closed;
      }
      const error = await client.add({ a: 1, b: 2 }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: 429, scope: 'tool', retryAfter: expect.any(Number) });
      expect((error as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
      expect((error as Error).message).toMatch(/^Rate limit exceeded: retry after \d+ s$/);
      await waitFor(() => accessLines(server.stderr()).filter((l) => l.tool === 'add').length === 4 && spansIn(file).filter((s) => s.name === 'tools/call add').length === 4);
    } finally {
      await client.close();
      await server.stop();
    }
    const adds = accessLines(server.stderr()).filter((l) => l.tool === 'add');
    expect(adds.map((l) => [l.outcome, l.error_code, l.transport])).toEqual([['ok', undefined, 'http'], ['ok', undefined, 'http'], ['error', 429, 'http'], ['error', 429, 'http']]);
    const refused = spansIn(file).filter((s) => s.name === 'tools/call add' && s.attributes['error.type'] === '429');
    expect(refused).toHaveLength(2);
    expect(refused[0]!.attributes).toMatchObject({ 'gen_ai.tool.name': 'add', 'rpc.response.status_code': '429', 'network.transport': 'tcp' });
    expect(adds[2]!.trace_id).toEqual(expect.any(String));
  });

  it('stdio: the generated client throws RateLimitError too', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env: { ...process.env, MCPGEN_RATE_LIMIT_TOOLS: 'add=1/60' } as Record<string, string>, stderr: 'ignore' });
    const client = await WeatherClient.connect({ transport });
    try {
      await client.add({ a: 1, b: 2 });
      const error = await client.add({ a: 1, b: 2 }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ code: 429, scope: 'tool', retryAfter: expect.any(Number) });
    } finally {
      await client.close();
    }
  });
});
