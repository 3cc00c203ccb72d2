// Real OpenAPI descriptions no one here wrote (vendored from @readme/oas-examples 8.2.2, MIT: the
// Swagger 2.0, OpenAPI 3.0 and 3.1 petstores, Bump's train-travel API, USPTO's data set API):
// import → check → generate → tsc (strict) → serve on 127.0.0.1 → every tool called through the official
// SDK client with arguments made from its input schema → the request the fake upstream (also on
// 127.0.0.1) received is checked against the operation: method, path, query, headers, body, credentials.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlersFile } from '../../src/import/openapi/handlers-file.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { pascalCase } from '../../src/common/names.js';
import { generateAndCompile } from '../support/generated-package.js';
import { sample } from '../support/schema-sample.js';
import { ROOT } from '../helpers.js';

interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly bytes: Buffer;
}

const CASES = [
  { file: 'swagger-2.0-petstore.json', name: 'petstore20', tools: 20, base: '/v2' },
  { file: 'openapi-3.0-petstore.json', name: 'petstore30', tools: 20, base: '/v3' },
  { file: 'openapi-3.1-petstore.json', name: 'petstore31', tools: 20, base: '/v3' },
  { file: 'openapi-3.1-train-travel.json', name: 'train', tools: 7, base: '/api' },
  { file: 'openapi-3.0-uspto.json', name: 'uspto', tools: 3, base: '/ds-api' },
];

let upstream: Server;
let upstreamUrl: string;
let seen: Seen[] = [];
let answer: { status: number; body: unknown; headers?: Record<string, string> } = { status: 200, body: {} };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: new URL(req.url!, 'http://upstream'), headers: req.headers, body: bytes.toString(), bytes });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

type Binding = { method: string; path: string; params: { arg: string; name: string; in: string }[]; body?: BodyBinding; output: boolean };
type BodyBinding = { arg: string; contentType: string; files?: readonly string[] };

describe('import openapi → generate → serve → proxy to a fake upstream', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.tools} tools, each called once, the upstream request checked`, async () => {
      const imported = await importOpenApi(`test/fixtures/openapi/oas-examples/${c.file}`, ROOT, { name: c.name });
      expect(imported.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const dir = join(ROOT, '.tmp/openapi-proxy', c.name);
      const built = await generateAndCompile(dir, c.name, stringify(imported.spec, { aliasDuplicateObjects: false }), { 'handlers.ts': handlersFile(imported, c.file, './server.js') });
      expect(built.diagnostics).toEqual([]);
      expect(built.compileErrors).toEqual([]);

      const stem = c.name.toUpperCase();
      process.env[`${stem}_BASE_URL`] = `${upstreamUrl}${c.base}`;
      for (const a of imported.auth) process.env[a.env] = `secret-${a.env}`;
      const factory = (await import(join(built.js, 'server.js')))[`create${pascalCase(c.name)}Server`];
      const { handlers } = await import(join(built.js, 'handlers.js'));
      const running = await factory(handlers).listen({ port: 0 });
      const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(c.tools);
        const bindings = imported.bindings as Record<string, Binding>;
        for (const tool of tools) {
          const binding = Object.values(bindings)[(imported.spec.tools as { name: string }[]).findIndex((t) => t.name === tool.name)]!;
          const args = sample(tool.inputSchema, (tool.inputSchema.$defs ?? {}) as Record<string, unknown>) as Record<string, unknown>;
          answer = { status: 200, body: tool.outputSchema ? sample(tool.outputSchema, (tool.outputSchema.$defs ?? {}) as Record<string, unknown>) : [{ any: 'thing' }] };
          seen = [];
          const result = await client.callTool({ name: tool.name, arguments: args });
          expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
          expect(seen, tool.name).toHaveLength(1);
          await expectRequest(seen[0]!, binding, args, c.base, imported.auth, tool.name);
          if (tool.outputSchema) expect(result.structuredContent, tool.name).toEqual(answer.body);
          else expect((result.content as { text: string }[])[0]!.text).toBe(JSON.stringify(answer.body));
        }
      } finally {
        await client.close();
        await running.close(500);
      }
    }, 180_000); // tsc on two shared cores: a timeout, not a target
  }

  it('4xx: a tool error with the status and the start of the body; 5xx: Retry-After passed on', async () => {
    const { callUpstream } = await import('@mcpgen/runtime/server');
    const binding = { method: 'GET', path: '/pets/{id}', params: [{ arg: 'id', name: 'id', in: 'path' as const }], output: true };
    answer = { status: 404, body: { message: 'no pet 7' } };
    const notFound = (await callUpstream(binding, { id: 7 }, { baseUrl: upstreamUrl })) as unknown as { isError: boolean; content: { text: string }[] };
    expect(notFound.isError).toBe(true);
    expect(notFound.content[0]!.text).toBe('upstream GET /pets/{id} answered 404 Not Found: {"message":"no pet 7"}');
    answer = { status: 503, body: { message: 'busy' }, headers: { 'retry-after': '30' } };
    const busy = (await callUpstream(binding, { id: 'a/b' }, { baseUrl: upstreamUrl })) as unknown as { isError: boolean; content: { text: string }[] };
    expect(busy.isError).toBe(true);
    expect(busy.content[0]!.text).toBe('upstream GET /pets/{id} answered 503 Service Unavailable (Retry-After: 30): {"message":"busy"}');
    expect(seen.at(-1)!.url.pathname).toBe('/pets/a%2Fb');
  });
});

async function expectRequest(req: Seen, binding: Binding, args: Record<string, unknown>, base: string, auth: readonly { type: string; env: string; in?: string; name?: string }[], tool: string): Promise<void> {
  expect(req.method, tool).toBe(binding.method);
  let path = binding.path;
  for (const p of binding.params.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(String(args[p.arg])));
  expect(req.url.pathname, tool).toBe(`${base}${path}`);
  for (const p of binding.params) {
    const v = args[p.arg];
    if (v === undefined) continue;
    const want = (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
    if (p.in === 'query') expect(req.url.searchParams.getAll(p.name), `${tool} query ${p.name}`).toEqual(want);
    // A header that is also an API key credential (the petstores' `api_key`) carries the configured
    // secret: the model's argument never replaces a credential (checked with the credentials below).
    const credential = auth.some((a) => a.type === 'apiKey' && a.in === 'header' && a.name!.toLowerCase() === p.name.toLowerCase());
    if (p.in === 'header' && !credential) expect(req.headers[p.name.toLowerCase()], `${tool} header ${p.name}`).toBe(want.join(','));
  }
  if (binding.body !== undefined && args[binding.body.arg] !== undefined) await expectBody(req, binding.body, args[binding.body.arg], tool);
  for (const a of auth) {
    const secret = `secret-${a.env}`;
    if (a.type === 'bearer') expect(req.headers.authorization, tool).toBe(`Bearer ${secret}`);
    else if (a.type === 'apiKey' && a.in === 'header') expect(req.headers[a.name!.toLowerCase()], tool).toBe(secret);
    else if (a.type === 'apiKey' && a.in === 'query') expect(req.url.searchParams.get(a.name!), tool).toBe(secret);
  }
  // The MCP caller's own credentials never reach the upstream: only configured ones are there.
  expect(req.headers['mcp-protocol-version'], tool).toBeUndefined();
}

/** The body as the upstream got it, in the operation's media type, against the argument the model sent. */
async function expectBody(req: Seen, body: BodyBinding, value: unknown, tool: string): Promise<void> {
  const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  const fields = (v: unknown): [string, unknown][] => Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => (Array.isArray(x) ? x.map((i): [string, unknown] => [k, i]) : [[k, x]]));
  if (body.contentType.startsWith('multipart/')) {
    expect(req.headers['content-type'], tool).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(req.bytes, { headers: { 'content-type': req.headers['content-type']! } }).formData();
    for (const [k, v] of fields(value)) {
      const part = form.getAll(k).shift()!;
      if (body.files?.includes(k)) expect(Buffer.from(await (part as Blob).arrayBuffer()), `${tool} file ${k}`).toEqual(Buffer.from(v as string, 'base64'));
      else expect(typeof part === 'string' ? part : JSON.parse(await part.text()), `${tool} part ${k}`).toEqual(typeof v === 'object' && v !== null ? v : text(v));
    }
    return;
  }
  expect(req.headers['content-type'], tool).toBe(body.contentType);
  if (/json/.test(body.contentType)) expect(JSON.parse(req.body), `${tool} body`).toEqual(value);
  else if (body.contentType === 'application/x-www-form-urlencoded') expect([...new URLSearchParams(req.body)], `${tool} body`).toEqual(fields(value).map(([k, v]) => [k, text(v)]));
  else if (/^text\/|xml/.test(body.contentType)) expect(req.body, `${tool} body`).toBe(text(value));
  else expect(req.bytes, `${tool} body`).toEqual(Buffer.from(value as string, 'base64'));
}
