// The OpenAPI proxy's request bodies and answers in media types other than JSON, against an upstream on
// 127.0.0.1: multipart (file parts from base64), form, text and raw bytes out; text, images, audio and
// other bytes (an embedded resource) back; JSON answers checked against the output schema by the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, createMcpgenServer, httpProxy, type HttpBinding, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { mcpRequest } from '../support/mcp-request.js';
import { formDataOf, startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => (upstream = await startMockUpstream()));
afterAll(() => upstream.stop());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const post = (contentType: string, files?: string[]): HttpBinding => ({ method: 'POST', path: '/things', params: [], body: { arg: 'body', contentType, ...(files ? { files } : {}) }, output: false });
type Result = { isError?: boolean; structuredContent?: unknown; content: Record<string, unknown>[] };
const call = async (binding: HttpBinding, args: Record<string, unknown>) => (await callUpstream(binding, args, { baseUrl: upstream.url, retries: 0 })) as unknown as Result;

describe('request bodies', () => {
  it('multipart/form-data: base64 file fields as file parts, objects as JSON parts, arrays repeated', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await call(post('multipart/form-data', ['file']), { body: { file: bytes.toString('base64'), name: 'rex', tags: ['a', 'b'], meta: { age: 3 } } });
    const req = upstream.requests.at(-1)!;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formDataOf(req);
    const file = form.get('file') as File;
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    expect(file.name).toBe('file');
    expect(form.get('name')).toBe('rex');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
    expect(JSON.parse(await (form.get('meta') as Blob).text())).toEqual({ age: 3 });
  });

  it('application/x-www-form-urlencoded: arrays repeated (form, explode)', async () => {
    await call(post('application/x-www-form-urlencoded'), { body: { name: 'a b', status: ['x', 'y'] } });
    const req = upstream.requests.at(-1)!;
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body.toString()).toBe('name=a+b&status=x&status=y');
  });

  it('text/plain is sent as it is; application/octet-stream from base64 as bytes', async () => {
    await call(post('text/plain'), { body: 'hello {not json}' });
    expect(upstream.requests.at(-1)!.body.toString()).toBe('hello {not json}');
    expect(upstream.requests.at(-1)!.headers['content-type']).toBe('text/plain');
    await call(post('application/octet-stream'), { body: PNG.toString('base64') });
    expect(upstream.requests.at(-1)!.body).toEqual(PNG);
    expect(upstream.requests.at(-1)!.headers['content-type']).toBe('application/octet-stream');
  });
});

describe('answers', () => {
  const get: HttpBinding = { method: 'GET', path: '/thing', params: [], output: false };
  const answering = (type: string, body: Buffer | string) => (upstream.reply = (_r, _i, res) => void res.writeHead(200, { 'content-type': type }).end(body));

  it('text → text content; image/* → image content; audio/* → audio content', async () => {
    answering('text/csv; charset=utf-8', 'a,b\n1,2\n');
    expect((await call(get, {})).content).toEqual([{ type: 'text', text: 'a,b\n1,2\n' }]);
    answering('image/png', PNG);
    expect((await call(get, {})).content).toEqual([{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }]);
    answering('audio/wav', PNG);
    expect((await call(get, {})).content).toEqual([{ type: 'audio', data: PNG.toString('base64'), mimeType: 'audio/wav' }]);
  });

  it('other bytes → an embedded resource with the bytes as blob and the request URL as uri', async () => {
    answering('application/pdf', PNG);
    expect((await call({ ...get, params: [{ arg: 'q', name: 'q', in: 'query' }] }, { q: 'x' })).content).toEqual([{ type: 'resource', resource: { uri: `${upstream.url}/thing?q=x`, mimeType: 'application/pdf', blob: PNG.toString('base64') } }]);
  });

  it('an answer over the bound without Content-Length (chunked) is refused while it is read', async () => {
    upstream.reply = (_r, _i, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 64; i++) res.write(Buffer.alloc(1024));
      res.end();
    };
    const r = (await callUpstream(get, {}, { baseUrl: upstream.url, maxBytes: 10_000 })) as unknown as Result;
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toBe('upstream GET /thing failed: upstream answer is over the 10000-byte bound');
  });

  it('JSON → structuredContent, checked against the output schema by the server (a mismatch is a tool error)', async () => {
    const definition: ServerDefinition = {
      info: { name: 'proxy', version: '1.0.0' },
      capabilities: { tools: {} },
      listCache: { ttlMs: 0, cacheScope: 'private' },
      tools: [{ definition: { name: 'pet', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }, method: 'pet', headers: [], elicit: {} }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const handler = createMcpgenServer(definition, httpProxy<{ pet: unknown }>({ pet: { ...get, output: true } }, { baseUrl: upstream.url }), { onHandlerError: () => undefined }).http();
    const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const callPet = async () => ((await (await handler.fetch(mcpRequest('tools/call', { name: 'pet', arguments: {}, _meta: META }, { name: 'pet' }))).json()) as { result: Result }).result;
    answering('application/json', '{"id":7}');
    expect((await callPet()).structuredContent).toEqual({ id: 7 });
    answering('application/problem+json; charset=utf-8', '{"id":"seven"}');
    const bad = await callPet();
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toBe('Tool pet produced output that does not match its output schema');
  });
});
