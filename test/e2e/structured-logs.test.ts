// Issue 30 item 5: structured logs. MCPGEN_LOG_FORMAT=json turns the runtime's own stderr lines (listening,
// handler errors, Redis state) into JSON objects (time, level, msg, fields); MCPGEN_LOG_LEVEL drops lines
// below it, the access log's included (its ok lines are info, its errors warn).
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../support/ports.js';
import { rawCall } from '../support/raw-http.js';
import { compiledMain, importCompiled } from '../support/servers.js';
import { configureLog } from '@mcpgen/runtime/server';

type Line = Record<string, unknown>;

/** The weather main over HTTP on a known port with `env`; its stderr as JSON lines (non-JSON lines kept as text). */
async function serve(env: Record<string, string>): Promise<{ url: string; lines: () => (Line | string)[]; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [compiledMain('weather'), '--http', '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = () => stderr.split('\n').filter((l) => l !== '').map((l) => (l.startsWith('{') ? (JSON.parse(l) as Line) : l));
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 20_000);
  return { url, lines, stop: () => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

async function call(url: string, name: string, id: number): Promise<void> {
  const c = rawCall(url, 'tools/call', { name, arguments: { a: 1, b: 2 } }, { id });
  await c.response;
  await c.closed;
}

describe('MCPGEN_LOG_FORMAT and MCPGEN_LOG_LEVEL (generated main)', () => {
  it('json: the listening line and the access log are JSON objects with time, level and msg', async () => {
    const server = await serve({ MCPGEN_LOG_FORMAT: 'json', MCPGEN_ACCESS_LOG: 'json' });
    try {
      await call(server.url, 'add', 1);
      await waitFor(() => server.lines().some((l) => typeof l === 'object' && l.msg === 'mcp request'));
      const lines = server.lines();
      expect(lines.every((l) => typeof l === 'object'), JSON.stringify(lines)).toBe(true);
      expect(lines.find((l) => (l as Line).msg === 'listening')).toMatchObject({ level: 'info', url: server.url });
      expect(lines.find((l) => (l as Line).msg === 'mcp request')).toMatchObject({ level: 'info', method: 'tools/call', tool: 'add', outcome: 'ok', request_id: '1' });
      for (const l of lines as Line[]) expect(Date.parse(l.time as string)).not.toBeNaN();
    } finally {
      await server.stop();
    }
  });

  it('warn: info lines (listening, successful requests) are dropped, failed requests kept', async () => {
    const server = await serve({ MCPGEN_LOG_FORMAT: 'json', MCPGEN_ACCESS_LOG: 'json', MCPGEN_LOG_LEVEL: 'warn' });
    try {
      await call(server.url, 'add', 1);
      await call(server.url, 'no_such_tool', 2);
      await waitFor(() => server.lines().length > 0);
      expect(server.lines()).toEqual([expect.objectContaining({ level: 'warn', msg: 'mcp request', outcome: 'error', request_id: '2' })]);
    } finally {
      await server.stop();
    }
  });
});

describe('runtime lines in JSON (in process)', () => {
  afterEach(() => configureLog({ format: 'text', level: 'info', write: (line) => void process.stderr.write(line) }));

  it('a handler that throws is one error line with where it happened, in JSON', async () => {
    const out: string[] = [];
    configureLog({ format: 'json', level: 'info', write: (line) => out.push(line) });
    const { createWeatherServer } = await importCompiled<{ createWeatherServer: (h: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } }>('weather', 'server.js');
    const { handlers } = await importCompiled<{ handlers: Record<string, unknown> }>('weather', 'handlers.js');
    const running = await createWeatherServer({ ...handlers, add: () => { throw new Error('disk on fire'); } }).listen({ port: 0 });
    const client = new Client({ name: 'logs', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }).catch(() => undefined);
      const lines = out.map((l) => JSON.parse(l) as Line);
      expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: expect.stringContaining('disk on fire'), where: expect.stringContaining('add') }));
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});
