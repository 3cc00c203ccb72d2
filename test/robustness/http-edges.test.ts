// The HTTP edges of generated servers (compiled main.js in their own processes, raw sockets): a Host
// or request target no URL can be made of is the client's error (400, not an empty 500), absolute-form
// targets are served (RFC 9112 §3.2.2), a chunked body over the limit is 413 on servers with and
// without x-mcp-header tools, bodies that are not UTF-8 are refused (J1), and no error body carries
// `"id": null` (J2; schema.json's JSONRPCErrorResponse allows the id to be absent, never null).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttp, type HttpProcess } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } });

let weather: HttpProcess; // no x-mcp-header tools
let sql: HttpProcess; // x-mcp-header tools: the runtime checks Mcp-Param-* before the SDK
beforeAll(async () => {
  [weather, sql] = await Promise.all([startHttp('weather'), startHttp('sql')]);
});
afterAll(() => {
  weather.child.kill('SIGKILL');
  sql.child.kill('SIGKILL');
});

const port = (p: HttpProcess) => Number(new URL(p.url).port);

/** Raw bytes on a fresh connection; resolves with status and body once the server answers and closes. */
function raw(p: HttpProcess, head: string, body: string | Buffer = '', chunked = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(p), '127.0.0.1', () => {
      socket.write(head.replace(/\n/g, '\r\n') + '\r\n');
      if (!chunked) socket.end(body);
      else {
        // One chunk at a time, each after the last was written, and none once the server has answered:
        // a server that refuses the body (413) closes while we would still be writing (EPIPE).
        const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
        const next = (i: number): void => {
          if (socket.destroyed || out !== '') return;
          if (i >= buf.length) return void socket.end('0\r\n\r\n');
          const part = buf.subarray(i, i + 64 * 1024);
          socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), () => next(i + part.length));
        };
        next(0);
      }
    });
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    const done = () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
      const split = out.indexOf('\r\n\r\n');
      let text = split >= 0 ? out.slice(split + 4) : '';
      if (/transfer-encoding: chunked/i.test(out.slice(0, split))) text = text.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n|\r\n0\r\n\r\n$/gi, '');
      resolve({ status: m === null ? 0 : Number(m[1]), body: text });
    };
    socket.on('close', done);
    socket.on('error', (e) => (out === '' ? reject(e) : done()));
    socket.setTimeout(15_000, () => socket.destroy());
  });
}

const head = (target: string, host: string | undefined, extra: Record<string, string>) =>
  [`POST ${target} HTTP/1.1`, ...(host === undefined ? [] : [`Host: ${host}`]), 'Content-Type: application/json', 'Accept: application/json, text/event-stream', `MCP-Protocol-Version: ${V}`, 'Mcp-Method: tools/list', 'Connection: close', ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`), ''].join('\n');

const post = (p: HttpProcess, body: string | Buffer, opts: { target?: string; host?: string } = {}) =>
  raw(p, head(opts.target ?? '/mcp', opts.host ?? `127.0.0.1:${port(p)}`, { 'Content-Length': String(Buffer.byteLength(body)) }), body);

function expectError(r: { status: number; body: string }, status: number, code: number) {
  expect(r.status).toBe(status);
  const json = JSON.parse(r.body);
  expect(json.error.code).toBe(code);
  expect(json).not.toHaveProperty('id', null);
  expect(schemaErrors('JSONRPCErrorResponse', json)).toEqual([]);
}

describe.each(['weather', 'sql'] as const)('%s server', (name) => {
  const server = () => (name === 'weather' ? weather : sql);

  it('answers 400 with a JSON-RPC error for a Host no URL can be made of', async () => {
    for (const host of ['bad host', 'a@b', 'x/y', '[::1', '127.0.0.1:80:80']) expectError(await post(server(), LIST, { host }), 400, -32600);
  });

  it('serves an absolute-form request target, and checks its authority as the host', async () => {
    const ok = await post(server(), LIST, { target: `http://127.0.0.1:${port(server())}/mcp`, host: 'ignored.example' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.tools.length).toBeGreaterThan(0);
    const foreign = await post(server(), LIST, { target: 'http://evil.example/mcp' });
    expect(foreign.status).toBe(403);
    expectError(await post(server(), LIST, { target: 'ftp://127.0.0.1/mcp' }), 400, -32600);
  });

  it('answers 413 to a chunked body over the limit', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(5 * 1024 * 1024), _meta: META } });
    const r = await raw(server(), head('/mcp', `127.0.0.1:${port(server())}`, { 'Transfer-Encoding': 'chunked' }), big, true);
    expectError(r, 413, -32600);
  });

  it('refuses a body that is not UTF-8 with 400 -32700', async () => {
    const body = Buffer.concat([Buffer.from(LIST.slice(0, -2)), Buffer.from(', "x": "\xff\xfe"}', 'latin1'), Buffer.from('}')]);
    expectError(await post(server(), body), 400, -32700);
  });

  it('writes no "id": null on errors it cannot tie to a request', async () => {
    expectError(await post(server(), '{"jsonrpc": "2.0", "id": 1, '), 400, -32700);
    const batch = await post(server(), `[${LIST}]`);
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body)).not.toHaveProperty('id');
    const foreignOrigin = await raw(server(), head('/mcp', `127.0.0.1:${port(server())}`, { Origin: 'http://evil.example', 'Content-Length': String(LIST.length) }), LIST);
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body)).not.toHaveProperty('id', null);
  });
});
