// A spec with `http:` bindings: generate → strict tsc → serve on 127.0.0.1 → the official client calls the
// bound tools, which need no handler, against a fake upstream on 127.0.0.1; the request it received is
// checked. A handler written for a bound tool wins over the proxy; an unbound tool keeps its handler.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAndCompile, type CompiledPackage } from '../support/generated-package.js';
import { cli, ROOT, tempDir } from '../helpers.js';

const SPEC = `mcpgen: 1
server: { name: pets, version: 1.0.0 }
upstream:
  baseUrl: http://127.0.0.1:1/unused
  retries: 0
  security:
    api_key: { type: apiKey, in: header, name: X-Api-Key }
    token: { type: bearer }
tools:
  - name: getPet
    input: { type: object, properties: { petId: { type: string }, trace: { type: string }, tags: { type: array, items: { type: string } } }, required: [petId] }
    output: { type: object, properties: { id: { type: integer }, name: { type: string } } }
    http:
      method: GET
      path: "/pets/{petId}"
      params: { petId: path, trace: { in: header, name: X-Trace }, tags: { in: query, explode: false } }
      security: [api_key]
  - name: addPet
    input: { type: object, properties: { pet: { type: object, properties: { name: { type: string } } } }, required: [pet] }
    http: { method: POST, path: /pets, body: pet }
  - name: deletePet
    input: { type: object, properties: { petId: { type: integer } }, required: [petId] }
    http: { method: DELETE, path: "/pets/{petId}", params: { petId: path } }
  - name: local_only
`;

// deletePet is written by hand: it must win over the proxy. local_only is not bound.
const HANDLERS = `import type { PetsOwnHandlers } from './server.js';
export const handlers: PetsOwnHandlers = {
  async deletePet(args) {
    return \`kept \${args.petId}\`;
  },
  async localOnly() {
    return 'local';
  },
};
`;

interface Seen { method: string; url: URL; headers: Record<string, string | string[] | undefined>; body: string }
let upstream: Server;
let upstreamUrl: string;
let seen: Seen[] = [];
let built: CompiledPackage;
const dir = join(ROOT, '.tmp/http-binding');

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: new URL(req.url!, 'http://upstream'), headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.method === 'GET' ? { id: 7, name: 'Rex' } : { created: true }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  built = await generateAndCompile(dir, 'pets', SPEC, { 'handlers.ts': HANDLERS });
}, 180_000);
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

describe('http: bindings in the spec', () => {
  it('generate writes upstream.ts, a scaffold stubbing only unbound tools, and the package compiles under strict tsc', () => {
    expect(built.diagnostics).toEqual([]);
    expect(built.compileErrors).toEqual([]);
    const upstreamTs = readFileSync(join(dir, 'out/pets/upstream.ts'), 'utf8');
    expect(upstreamTs).toContain('export type PetsBoundMethod = "getPet" | "addPet" | "deletePet";');
    expect(upstreamTs).toContain('baseUrl: env["PETS_BASE_URL"] ?? "http://127.0.0.1:1/unused",');
    expect(upstreamTs).toContain('security: ["PETS_API_KEY"],');
    expect(readFileSync(join(dir, 'out/pets/server.ts'), 'utf8')).toContain('return createMcpgenServer(definition, { ...petsProxy(), ...handlers },');
    expect(readFileSync(join(dir, 'out/pets/index.ts'), 'utf8')).toContain("export * from './upstream.js';");
  });

  it('the scaffold generate writes stubs the unbound tools only and compiles as it is', async () => {
    const scaffold = await generateAndCompile(join(ROOT, '.tmp/http-binding-scaffold'), 'pets', SPEC, {});
    expect(scaffold.compileErrors).toEqual([]);
    const text = readFileSync(join(ROOT, '.tmp/http-binding-scaffold/out/pets/handlers.ts'), 'utf8');
    expect(text).toContain('export const handlers: PetsOwnHandlers = {\n  async localOnly() {');
    expect(text).not.toMatch(/async (getPet|addPet|deletePet)\(/);
  }, 180_000);

  it('bound tools call the upstream with no handler; a written handler wins; the request is checked', async () => {
    process.env.PETS_BASE_URL = `${upstreamUrl}/v1`;
    process.env.PETS_API_KEY = 'key-1';
    process.env.PETS_TOKEN = 'token-1';
    const { createPetsServer } = await import(join(built.js, 'server.js'));
    const { handlers } = await import(join(built.js, 'handlers.js'));
    const running = await createPetsServer(handlers).listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    try {
      seen = [];
      const got = await client.callTool({ name: 'getPet', arguments: { petId: 'a/b', trace: 't-1', tags: ['x', 'y'] } });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toEqual({ id: 7, name: 'Rex' });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.method).toBe('GET');
      expect(seen[0]!.url.pathname).toBe('/v1/pets/a%2Fb');
      expect(seen[0]!.url.search).toBe('?tags=x%2Cy');
      expect(seen[0]!.headers['x-trace']).toBe('t-1');
      expect(seen[0]!.headers['x-api-key']).toBe('key-1');
      expect(seen[0]!.headers.authorization).toBeUndefined(); // security: [api_key] only

      seen = [];
      const added = await client.callTool({ name: 'addPet', arguments: { pet: { name: 'Rex' } } });
      expect(added.isError).toBeFalsy();
      expect(seen.map((s) => [s.method, s.url.pathname, s.headers['content-type'], JSON.parse(s.body)])).toEqual([['POST', '/v1/pets', 'application/json', { name: 'Rex' }]]);
      // No `security`: every configured scheme is sent.
      expect([seen[0]!.headers['x-api-key'], seen[0]!.headers.authorization]).toEqual(['key-1', 'Bearer token-1']);

      seen = [];
      const kept = await client.callTool({ name: 'deletePet', arguments: { petId: 3 } });
      expect(kept.content).toEqual([{ type: 'text', text: 'kept 3' }]);
      expect(seen).toEqual([]); // the written handler won: the upstream heard nothing
      expect((await client.callTool({ name: 'local_only', arguments: {} })).content).toEqual([{ type: 'text', text: 'local' }]);
    } finally {
      await client.close();
      await running.close(500);
    }
  }, 60_000);

  it('generate neither asks for a handler of a newly bound tool nor calls a written one for a tool that became bound dropped', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'specs'));
    const spec = (bound: string) => `mcpgen: 1\nserver: { name: shop, version: 1.0.0 }\nupstream: { baseUrl: https://shop.example.com }\ntools:\n  - name: list_items\n${bound}  - name: add_item\n    http: { method: POST, path: /items }\n`;
    writeFileSync(join(dir, 'specs/shop.yaml'), spec(''));
    expect((await cli(['generate', 'specs/shop.yaml'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'generated/shop/handlers.ts'), 'utf8')).toContain('async listItems()');
    writeFileSync(join(dir, 'specs/shop.yaml'), spec('    http: { method: GET, path: /items }\n') + '  - name: remove_item\n    http: { method: DELETE, path: /items }\n');
    const again = await cli(['generate', 'specs/shop.yaml'], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/no longer declares|gained/);
  }, 60_000);

  it('hostile spec strings reach upstream.ts as data only: it compiles and holds them unchanged', async () => {
    const path = "/x/\"'`$(process.exit(1))*/\u2028\\n";
    const header = "X-'\"*/`";
    const base = 'https://h.example.com/p\'q`*/';
    const spec = `mcpgen: 1\nserver: { name: hostile, version: 1.0.0 }\nupstream:\n  baseUrl: ${JSON.stringify(base)}\n  security: { "k.1": { type: apiKey, in: header, name: ${JSON.stringify(header)}, env: HOSTILE_K } }\ntools:\n  - name: t\n    input: { type: object, properties: { h: { type: string } } }\n    http: { method: GET, path: ${JSON.stringify(path)}, params: { h: { in: header, name: ${JSON.stringify(header)} } }, security: ["k.1"] }\n`;
    const hostile = await generateAndCompile(join(ROOT, '.tmp/http-binding-hostile'), 'hostile', spec, {});
    expect(hostile.diagnostics.map((d) => (d as { message: string }).message)).toEqual([]);
    expect(hostile.compileErrors).toEqual([]);
    const mod = await import(join(hostile.js, 'upstream.js'));
    expect(mod.httpBindings.t).toEqual({ method: 'GET', path, params: [{ arg: 'h', in: 'header', name: header }], security: ['HOSTILE_K'], output: false });
    expect(mod.upstreamOptions({}).baseUrl).toBe(base);
    expect(mod.upstreamOptions({}).auth).toEqual([{ type: 'apiKey', in: 'header', name: header, env: 'HOSTILE_K' }]);
  }, 120_000);
});
