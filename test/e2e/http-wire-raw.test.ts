// Issue 25 items 1–4: raw-socket wire rows against a generated server (sql, both eras on by default,
// and the same server with legacy: false for comparison), on 127.0.0.1.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlHandlers, createSqlServer as CreateSqlServer } from '../../generated/sql/server.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const LIMIT = 64 * 1024;

let both: URL;
let only2026: URL;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const { createSqlServer } = await importCompiled<{ createSqlServer: typeof CreateSqlServer }>('sql', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SqlHandlers }>('sql', 'handlers.js');
  const a = await createSqlServer(handlers).listen({ port: 0, maxBodyBytes: LIMIT });
  const b = await createSqlServer(handlers, { legacy: false } as never).listen({ port: 0, maxBodyBytes: LIMIT });
  both = new URL(a.url);
  only2026 = new URL(b.url);
  stops.push(() => a.close(1000), () => b.close(1000));
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

interface Raw {
  status: number;
  head: string;
  json: any;
  error?: string;
}

/** One request on its own socket; the body is written in chunks (`chunkDelayMs` apart), as bytes. */
function raw(target: URL, headers: Record<string, string>, body: Buffer, chunkDelayMs = 0): Promise<Raw> {
  return new Promise((resolve) => {
    const socket = connect(Number(target.port), target.hostname);
    const got: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (d) => got.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      const text = Buffer.concat(got).toString('utf8');
      const [head = '', rest = ''] = text.split('\r\n\r\n', 2);
      let json: any;
      try {
        json = JSON.parse(/^transfer-encoding: chunked$/im.test(head) ? dechunk(rest) : rest);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), head, json, ...(error !== undefined ? { error } : {}) });
    });
    const lines = [`POST ${target.pathname} HTTP/1.1`, `Host: ${target.host}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.write(Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'));
    void (async () => {
      for (let i = 0; i < body.length; i += 16 * 1024) {
        if (socket.destroyed) return;
        socket.write(body.subarray(i, i + 16 * 1024));
        if (chunkDelayMs > 0) await new Promise((r) => setTimeout(r, chunkDelayMs));
      }
    })();
  });
}

function dechunk(text: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const eol = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

function jsonHeaders(body: Buffer, extra: Record<string, string> = {}): Record<string, string> {
  return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': VERSION, 'Content-Length': String(body.length), ...extra };
}

describe('raw wire rows (issue 25 items 1–4)', () => {
  it('item 1: a POSTed JSON-RPC response with the 2026-07-28 header is 400 -32600 with both eras on, as with legacy: false', async () => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} }));
    for (const target of [both, only2026]) {
      const r = await raw(target, jsonHeaders(body), body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe(-32600);
      expect(r.json.error.message).not.toContain('Unsupported protocol version');
    }
  });

  it.each([['1.5'], ['-2.5'], ['1e300']])('item 2: an invalid id %s is not echoed in the error', async (id) => {
    const body = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${JSON.stringify(META)}}}`);
    const r = await raw(both, jsonHeaders(body, { 'Mcp-Method': 'tools/list' }), body);
    expect(r.status).toBe(400);
    expect(r.json.error).toBeDefined();
    expect(r.json.id).toBeUndefined();
    expect(schemaErrors('JSONRPCErrorResponse', r.json)).toEqual([]);
  });

  it('item 3: an over-limit body with Content-Length always gets 413, never a reset (10 runs)', async () => {
    const body = Buffer.alloc(LIMIT * 4, 0x20);
    for (let i = 0; i < 10; i++) {
      const r = await raw(both, jsonHeaders(body, { 'Mcp-Method': 'tools/list' }), body, 2);
      expect({ run: i, status: r.status, error: r.error }).toEqual({ run: i, status: 413, error: undefined });
      expect(r.json.error.code).toBe(-32600);
    }
  });

  it.each([
    ['UTF-8 bytes of an existing tool name with an accent', 'list_tablés'],
    ['UTF-8 bytes of CJK text', '世界'],
  ])('item 4: raw non-ASCII bytes in Mcp-Name (%s) are 400 -32020, like Mcp-Param-*', async (_label, name) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: { region: 'x' }, _meta: META } }));
    const headers = jsonHeaders(body, { 'Mcp-Method': 'tools/call', 'Mcp-Param-Region': 'x' });
    // Header bytes as UTF-8, written through a latin1 string (one char per byte).
    headers['Mcp-Name'] = Buffer.from(name, 'utf8').toString('latin1');
    const r = await raw(both, headers, body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32020);
    expect(r.json.id).toBe(3);
    expect(schemaErrors('JSONRPCErrorResponse', r.json)).toEqual([]);
  });
});
