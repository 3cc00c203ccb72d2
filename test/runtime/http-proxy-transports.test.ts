// The proxy's two transports give the same tool results: node:http with keep-alive agents (what Node uses
// when no `fetch` is given: http-node-send.ts) and fetch (workerd, or a `fetch` option). Against an upstream
// on 127.0.0.1: answers of each media type and status, redirects by the Fetch standard's rules, compressed
// answers decoded, the size bound on decoded bytes, a cancelled call, and connections kept alive.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, type HttpBinding, type HttpProxyOptions } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream, type UpstreamReply } from '../support/mock-upstream.js';

let upstream: MockUpstream;
let other: MockUpstream; // a second origin, for cross-origin redirects
beforeAll(async () => {
  upstream = await startMockUpstream();
  other = await startMockUpstream((_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('elsewhere'));
});
afterAll(async () => {
  await upstream.stop();
  await other.stop();
});

type Result = { isError?: boolean; structuredContent?: unknown; content: Record<string, unknown>[] };
const TRANSPORTS: [string, Partial<HttpProxyOptions>][] = [
  ['node:http', {}],
  ['fetch', { fetch: (input, init) => fetch(input, init) }],
];
const binding = (method: string, output = false): HttpBinding => ({ method, path: '/things', params: [], ...(method === 'POST' ? { body: { arg: 'body', contentType: 'application/json' } } : {}), output });
const call = async (b: HttpBinding, options: Partial<HttpProxyOptions>, args: Record<string, unknown> = {}) =>
  (await callUpstream(b, args, { baseUrl: upstream.url, retries: 0, ...options })) as unknown as Result;

const ANSWERS: [string, UpstreamReply][] = [
  ['JSON', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"rex"}')],
  ['text', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('héllo')],
  ['image', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]))],
  ['bytes', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from([80, 75, 3, 4]))],
  ['empty', (_r, _i, res) => void res.writeHead(204).end()],
  ['404', (_r, _i, res) => void res.writeHead(404, { 'content-type': 'application/json', 'retry-after': '3' }).end('{"message":"no such pet"}')],
  ['gzip', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"id":2}'))],
  // Header lines as node:http's raw view reads them (no Headers object there): any case, repeated lines joined.
  ['repeated Retry-After', (_r, _i, res) => void res.setHeader('Retry-After', ['3', '4']).writeHead(429, { 'Content-Type': 'text/plain' }).end('slow down')],
  ['upper-case type', (_r, _i, res) => void res.writeHead(200, { 'CONTENT-TYPE': 'Application/JSON; charset=utf-8' }).end('{"id":3}')],
  ['two chunks', (_r, _i, res) => void res.writeHead(200, { 'content-type': 'application/json' }).write('{"id":', () => res.end('4}'))],
];

describe('node:http and fetch give the same results', () => {
  it.each(ANSWERS)('%s', async (_name, reply) => {
    upstream.reply = reply;
    const [viaNode, viaFetch] = [await call(binding('GET', true), TRANSPORTS[0]![1]), await call(binding('GET', true), TRANSPORTS[1]![1])];
    expect(viaNode).toEqual(viaFetch);
  });

  it('the gzip answer is decoded, and the bound counts decoded bytes', async () => {
    upstream.reply = ANSWERS.find(([n]) => n === 'gzip')![1];
    expect((await call(binding('GET', true), {})).structuredContent).toEqual({ id: 2 });
    const big = gzipSync(Buffer.alloc(50_000, 'a'));
    upstream.reply = (_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(big);
    for (const [name, options] of TRANSPORTS) expect((await call(binding('GET'), { ...options, maxBytes: 10_000 })).content[0]!.text, name).toBe('upstream GET /things failed: upstream answer is over the 10000-byte bound');
  });
});

describe.each(TRANSPORTS)('redirects over %s', (_name, options) => {
  const redirectThen = (status: number, location: string): UpstreamReply => (req, _i, res) =>
    void (req.url.pathname === '/things' ? res.writeHead(status, { location }).end() : res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body: req.body.toString(), auth: req.headers.authorization ?? null })));

  it('303 after a POST: a GET without the body; 307 and 308: the same method and body', async () => {
    upstream.reply = redirectThen(303, '/done');
    const auth: Partial<HttpProxyOptions> = { auth: [{ type: 'bearer', env: 'T' }], env: { T: 'secret' } };
    expect(JSON.parse(String((await call(binding('POST'), { ...options, ...auth }, { body: { a: 1 } })).content[0]!.text))).toEqual({ method: 'GET', body: '', auth: 'Bearer secret' });
    for (const status of [307, 308]) {
      upstream.reply = redirectThen(status, '/done');
      expect(JSON.parse(String((await call(binding('POST'), { ...options, ...auth }, { body: { a: 1 } })).content[0]!.text)), String(status)).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer secret' });
    }
  });

  it('a redirect to another origin drops the credentials', async () => {
    other.reply = (req, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`auth: ${req.headers.authorization ?? 'none'}`);
    upstream.reply = redirectThen(302, `${other.url}/landing`);
    expect((await call(binding('GET'), { ...options, auth: [{ type: 'bearer', env: 'T' }], env: { T: 'secret' } })).content[0]!.text).toBe('auth: none');
  });
});

describe('node:http', () => {
  it('keeps connections alive: sequential calls share one socket', async () => {
    upstream.reply = (_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${res.socket?.remotePort}`);
    const seen = new Set<unknown>();
    for (let i = 0; i < 5; i++) seen.add((await call(binding('GET'), {})).content[0]!.text);
    expect(seen.size).toBe(1);
  });

  it('an answer cut short is a failed call, retried as a connection error is', async () => {
    upstream.reply = (_r, _i, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"id":', () => res.socket?.destroy());
    };
    const before = upstream.requests.length;
    const result = (await call(binding('GET', true), { retries: 1, retryDelayMs: 1 })) as Result;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^upstream GET \/things failed: /);
    expect(upstream.requests.length - before).toBe(2);
  });

  it('a cancelled call stops waiting and is not retried', async () => {
    upstream.reply = (_r, _i, res) => void setTimeout(() => res.writeHead(200).end(), 500);
    const before = upstream.requests.length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = (await callUpstream(binding('GET'), {}, { baseUrl: upstream.url }, controller.signal)) as unknown as Result;
    expect(Date.now() - started).toBeLessThan(400);
    expect(result.isError).toBe(true);
    expect(upstream.requests.length - before).toBe(1);
  });
});
