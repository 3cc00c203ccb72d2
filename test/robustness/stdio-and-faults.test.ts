// stdio with malformed lines, and process-level faults: SIGTERM drains in-flight HTTP requests.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prng } from '../support/prng.js';
import { compiledMain, ROOT, startScript } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

describe('stdio transport under malformed input', () => {
  it('keeps serving after garbage lines and writes only JSON-RPC to stdout', async () => {
    const child = spawn(process.execPath, [compiledMain('weather')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const r = prng(7);
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }),
      'not json at all',
      '{"jsonrpc": "2.0", "id": 2, "method": ',
      JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } }]),
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'nope/nothing', params: { _meta: META } }),
      JSON.stringify({ id: 5, method: 'tools/list' }),
      '\u0000\u0001\u0002',
      'x'.repeat(200_000),
      ...Array.from({ length: 200 }, () => r.string(60)),
      JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'add', arguments: { a: 40, b: 2 }, _meta: META } }),
    ];
    child.stdin.write(lines.map((l) => l.replace(/\n/g, ' ')).join('\r\n') + '\n');
    const deadline = Date.now() + 15_000;
    while (!out.includes('"id":99') && Date.now() < deadline && child.exitCode === null) await new Promise((res) => setTimeout(res, 50));
    child.stdin.end();
    await new Promise((res) => child.once('exit', res));
    const messages = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: unknown; result?: { structuredContent?: unknown }; error?: { code: number } });
    expect(messages.find((m) => m.id === 99)?.result?.structuredContent).toEqual({ sum: 42 });
    expect(messages.find((m) => m.id === 1)?.result).toMatchObject({ supportedVersions: ['2026-07-28'] });
    expect(messages.find((m) => m.id === 4)?.error?.code).toBe(-32601);
    for (const m of messages) expect((m as { jsonrpc?: string }).jsonrpc).toBe('2.0');
  });
});

describe('SIGTERM', () => {
  it('lets an in-flight request finish, then exits 0', async () => {
    const server = await startScript(join(ROOT, 'test/support/hostile-server.mjs'));
    const until = async (re: RegExp) => {
      for (let i = 0; i < 200 && !re.test(server.stderr()); i++) await new Promise((r) => setTimeout(r, 25));
      return re.exec(server.stderr());
    };
    const url = server.url;
    const inflight = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-region': 'eu-west1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_sql', arguments: { region: 'eu-west1', query: 'SLOW' }, _meta: META } }),
    }).then(async (r) => ({ status: r.status, json: JSON.parse(await r.text()) }));
    expect(await until(/slow request started/)).not.toBeNull(); // the request is in the handler now
    const exited = server.stop('SIGTERM');
    const answer = await inflight;
    expect(answer.status).toBe(200);
    expect(answer.json.result.structuredContent).toEqual({ columns: ['slept'], rows: [['200ms']], rowCount: 1 });
    expect(await exited).toBe(0);
  });
});

describe('stdio lines the SDK transport dropped or died on', () => {
  /** Run a stdio server, write `input`, end stdin, and collect every stdout line until it exits. */
  async function session(args: readonly string[], input: readonly (string | Buffer)[], endStdin = true): Promise<{ code: number | null; messages: { id?: unknown; error?: { code: number }; result?: { structuredContent?: unknown } }[] }> {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    for (const part of input) child.stdin.write(part);
    if (endStdin) child.stdin.end();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    return { code, messages: out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) };
  }
  const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } }) + '\n';

  it('answers a line over 10 MiB and lines that are not JSON with -32700, and keeps serving', async () => {
    const { code, messages } = await session([compiledMain('weather')], [Buffer.alloc(11 * 1024 * 1024, 'x'), '\n', 'not json\n', '{"jsonrpc": "2.0", "id": 3\n', '{"id": 4, "method": "tools/list"}\n', call(5, 'add', { a: 40, b: 2 })]);
    expect(code).toBe(0);
    const parseErrors = messages.filter((m) => m.error?.code === -32700);
    expect(parseErrors).toHaveLength(3);
    for (const m of parseErrors) expect(m).not.toHaveProperty('id');
    expect(messages.find((m) => m.id === 4)?.error?.code).toBe(-32600);
    expect(messages.find((m) => m.id === 5)?.result?.structuredContent).toEqual({ sum: 42 });
    for (const m of messages) expect(schemaErrors(m.error ? 'JSONRPCErrorResponse' : 'JSONRPCResultResponse', m)).toEqual([]);
  });

  it('writes the answer of a call still running when stdin ends, then exits 0', async () => {
    const { code, messages } = await session([join(ROOT, 'test/support/hostile-server.mjs')], [call(1, 'execute_sql', { region: 'eu-west1', query: 'SLOW' })]);
    expect(code).toBe(0);
    expect(messages.find((m) => m.id === 1)?.result?.structuredContent).toEqual({ columns: ['slept'], rows: [['200ms']], rowCount: 1 });
  });
});
