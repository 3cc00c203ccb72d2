// Real OpenAPI descriptions no one here wrote (vendored from @readme/oas-examples 8.2.2, MIT: the
// Swagger 2.0, OpenAPI 3.0 and 3.1 petstores, Bump's train-travel API, USPTO's data set API, and STAPI,
// the Star Trek API: 120 operations, 222 schemas; GitHub's 1,223 are test/interop/openapi-github.test.ts):
// import (a spec with `http:` bindings, no handlers) → check → generate → tsc (strict) → serve on
// 127.0.0.1 with the scaffold handlers as generated → every tool called through the official SDK client
// with arguments made from its input schema → the request the fake upstream (also on 127.0.0.1)
// received is checked against the operation: method, path, query, headers, body, credentials.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { pascalCase } from '../../src/common/names.js';
import { generateAndCompileMany, type CompiledPackage } from '../support/generated-package.js';
import { sample } from '../support/schema-sample.js';
import { expectRequest, proxyView, type Seen } from '../support/openapi-expect.js';
import { ROOT } from '../support/root.js';


const CASES = [
  { file: 'swagger-2.0-petstore.json', name: 'petstore20', tools: 20, base: '/v2' },
  { file: 'openapi-3.0-petstore.json', name: 'petstore30', tools: 20, base: '/v3' },
  { file: 'openapi-3.1-petstore.json', name: 'petstore31', tools: 20, base: '/v3' },
  { file: 'openapi-3.1-train-travel.json', name: 'train', tools: 7, base: '/api' },
  { file: 'openapi-3.0-uspto.json', name: 'uspto', tools: 3, base: '/ds-api' },
  { file: 'openapi-3.0-star-trek.json', name: 'stapi', tools: 120, base: '/api/v1/rest' },
];

const PETWIN_HANDLERS = "import type { PetwinOwnHandlers } from './server.js';\nexport const handlers: PetwinOwnHandlers = {\n  async getPetById(args) {\n    return { id: args.petId, name: 'written by hand', photoUrls: [] };\n  },\n};\n";

// Each description imported and generated once; the seven packages are type-checked in one tsc program
// (generateAndCompileMany), and each test asserts on its own package's diagnostics and tsc errors.
const importedByName = new Map<string, Awaited<ReturnType<typeof importOpenApi>>>();
const builtByName = new Map<string, CompiledPackage>();
beforeAll(async () => {
  const packages = [];
  for (const { file, name } of [...CASES, { file: 'openapi-3.0-petstore.json', name: 'petwin' }]) {
    const spec = await importOpenApi(`test/fixtures/openapi/oas-examples/${file}`, ROOT, { name });
    importedByName.set(name, spec);
    const files = name === 'petwin' ? { 'handlers.ts': PETWIN_HANDLERS } : {};
    packages.push({ dir: join(ROOT, '.tmp/openapi-proxy', name), name, spec: stringify(spec.spec, { aliasDuplicateObjects: false }), files });
  }
  const compiled = await generateAndCompileMany(packages);
  packages.forEach((p, i) => builtByName.set(p.name, compiled[i]!));
}, 240_000); // tsc on two shared cores: a timeout, not a target

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
// The upstream URLs and credentials the servers read: unset again, so the file shares its worker process.
afterAll(() => void vi.unstubAllEnvs());

const importedSpec = (name: string) => importedByName.get(name)!;
const builtPackage = (name: string) => builtByName.get(name)!;


describe('import openapi → generate → serve → proxy to a fake upstream', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.tools} tools, each called once, the upstream request checked`, async () => {
      const imported = importedSpec(c.name);
      expect(imported.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const built = builtPackage(c.name);
      expect(built.diagnostics).toEqual([]);
      expect(built.compileErrors).toEqual([]);

      const stem = c.name.toUpperCase();
      vi.stubEnv(`${stem}_BASE_URL`, `${upstreamUrl}${c.base}`);
      const { bindings, auth } = proxyView(imported.spec, c.name);
      for (const a of auth) vi.stubEnv(a.env, `secret-${a.env}`);
      const factory = (await import(join(built.js, 'server.js')))[`create${pascalCase(c.name)}Server`];
      const { handlers } = await import(join(built.js, 'handlers.js'));
      const running = await factory(handlers).listen({ port: 0 });
      const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(c.tools);
        for (const tool of tools) {
          const binding = bindings[tool.name]!;
          const args = sample(tool.inputSchema, (tool.inputSchema.$defs ?? {}) as Record<string, unknown>) as Record<string, unknown>;
          answer = { status: 200, body: tool.outputSchema ? sample(tool.outputSchema, (tool.outputSchema.$defs ?? {}) as Record<string, unknown>) : [{ any: 'thing' }] };
          seen = [];
          const result = await client.callTool({ name: tool.name, arguments: args });
          expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
          expect(seen, tool.name).toHaveLength(1);
          await expectRequest(seen[0]!, binding, args, c.base, auth, tool.name);
          if (tool.outputSchema) expect(result.structuredContent, tool.name).toEqual(answer.body);
          else expect((result.content as { text: string }[])[0]!.text).toBe(JSON.stringify(answer.body));
        }
      } finally {
        await client.close();
        await running.close(500);
      }
    });
  }

  it('a handler written for a bound tool wins over the proxy; the other bound tools still reach the upstream', async () => {
    const built = builtPackage('petwin');
    expect(built.compileErrors).toEqual([]);
    vi.stubEnv('PETWIN_BASE_URL', `${upstreamUrl}/v3`);
    const { createPetwinServer } = await import(join(built.js, 'server.js'));
    const { handlers: written } = await import(join(built.js, 'handlers.js'));
    const running = await createPetwinServer(written).listen({ port: 0 });
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    try {
      seen = [];
      const own = await client.callTool({ name: 'getPetById', arguments: { petId: 5 } });
      expect(own.structuredContent).toEqual({ id: 5, name: 'written by hand', photoUrls: [] });
      expect(seen).toEqual([]);
      answer = { status: 200, body: [{ id: 1, name: 'Rex' }] };
      const proxied = await client.callTool({ name: 'findPetsByStatus', arguments: { status: ['sold', 'pending'] } });
      expect(proxied.isError, JSON.stringify(proxied.content)).toBeFalsy();
      expect(seen.map((r) => [r.method, r.url.pathname, r.url.search])).toEqual([['GET', '/v3/pet/findByStatus', '?status=sold&status=pending']]);
    } finally {
      await client.close();
      await running.close(500);
    }
  });

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
    const unset = (await callUpstream(binding, { id: 7 }, { baseUrl: '' })) as unknown as { isError: boolean; content: { text: string }[] };
    expect(unset.content[0]!.text).toBe("upstream GET /pets/{id}: no upstream base URL is configured (set the server's <SERVER>_BASE_URL)");
  });
});
