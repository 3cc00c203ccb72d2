// `mcpgen import openapi` as a command, and the schema conversion as given/want cases.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertSchema } from '../../src/import/openapi/schema.js';
import { IMPORT_MARK } from '../../src/cli/commands/import-openapi.js';
import { cli, ROOT, tempDir } from '../helpers.js';

type Http = { method: string; path: string; params?: Record<string, unknown>; body?: unknown; security?: string[] };
const httpOf = (spec: Record<string, unknown>, name: string): Http => (spec.tools as { name: string; http: Http }[]).find((t) => t.name === name)!.http;

const PETSTORE = join(ROOT, 'test/fixtures/openapi/oas-examples/openapi-3.0-petstore.json');
const refs = (r: string) => r.replace('#/components/schemas/', '#/$defs/');

describe('convertSchema (OpenAPI Schema Object → JSON Schema 2020-12)', () => {
  const cases: [string, unknown, unknown][] = [
    ['3.0 nullable string', { type: 'string', nullable: true }, { type: ['string', 'null'] }],
    ['3.0 nullable enum keeps null allowed', { type: 'string', enum: ['a'], nullable: true }, { type: ['string', 'null'], enum: ['a', null] }],
    ['3.0 nullable $ref', { $ref: '#/components/schemas/Pet', nullable: true }, { anyOf: [{ $ref: '#/$defs/Pet' }, { type: 'null' }] }],
    ['3.0 boolean exclusiveMinimum', { type: 'number', minimum: 0, exclusiveMinimum: true }, { type: 'number', exclusiveMinimum: 0 }],
    ['3.0 exclusiveMaximum: false is dropped', { type: 'integer', maximum: 9, exclusiveMaximum: false }, { type: 'integer', maximum: 9 }],
    ['unknown keywords dropped', { type: 'object', discriminator: { propertyName: 'k' }, xml: { name: 'p' }, example: 1, 'x-foo': 1, properties: {} }, { type: 'object', properties: {} }],
    ['type implied by properties', { properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { a: { type: 'string' } }, required: ['a'], type: 'object' }],
    ['minLength on an integer has no effect: dropped', { type: 'integer', minLength: 3 }, { type: 'integer' }],
    ['unknown format dropped, known kept', { type: 'object', properties: { a: { type: 'string', format: 'uriref' }, b: { type: 'string', format: 'uuid' } } }, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', format: 'uuid' } } }],
    ['nested refs rewritten', { type: 'array', items: { $ref: '#/components/schemas/Tag' } }, { type: 'array', items: { $ref: '#/$defs/Tag' } }],
    ['required names an undeclared property: declared as {}', { type: 'object', properties: { status: { type: 'string' } }, required: ['conclusion'] }, { type: 'object', properties: { status: { type: 'string' }, conclusion: {} }, required: ['conclusion'] }],
    ['an empty default its format refuses is dropped', { type: 'string', format: 'uri', default: '' }, { type: 'string', format: 'uri' }],
    ['Swagger 2.0 file', { type: 'file' }, { type: 'string' }],
  ];
  for (const [name, given, want] of cases) it(name, () => expect(convertSchema(given, refs)).toEqual(want));
});

describe('mcpgen import openapi', () => {
  it('writes its own include file (tools bound to their operations, the upstream section) and the root spec that includes it, no handlers file; checks the spec', async () => {
    const dir = tempDir();
    const r = await cli(['import', 'openapi', PETSTORE, '--name', 'pets', '--tag', 'pet', '--method', 'get,post'], dir);
    expect(r.code, r.stderr).toBe(0);
    const spec = readFileSync(join(dir, 'specs/pets/openapi.yaml'), 'utf8');
    expect(spec).toMatch(/^# Written by `mcpgen import openapi` from ".*openapi-3\.0-petstore\.json"; a re-import rewrites this file\.\n/);
    expect(spec).not.toMatch(/^(mcpgen|server):/m);
    const root = readFileSync(join(dir, 'specs/pets.yaml'), 'utf8');
    expect(root).toMatch(/^# This spec is yours/);
    expect(root).toMatch(/^server:\n {2}name: pets\n {2}version: 1\.0\.0\n/m);
    expect(root).toMatch(/^include:\n {2}- pets\/openapi\.yaml\n[^]*^overrides:\n {2}tools: \{\}\n$/m);
    const names = [...spec.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
    expect(names).toEqual(['addPet', 'findPetsByStatus', 'findPetsByTags', 'getPetById', 'updatePetWithForm', 'uploadFile']);
    expect(existsSync(join(dir, 'generated/pets/handlers.ts'))).toBe(false);
    expect(spec).toContain('upstream:\n  baseUrl: http://petstore.swagger.io/v2\n  security:\n    api_key:\n      type: apiKey\n      in: header\n      name: api_key\n    petstore_auth:\n      type: bearer\n');
    // Short forms: a param is its location alone, a JSON body its property.
    expect(spec).toContain('    http:\n      method: GET\n      path: /pet/{petId}\n      params:\n        petId: path\n      security:\n        - api_key\n');
    // uploadFile's application/octet-stream body is raw bytes, given as base64: no operation is skipped.
    expect(r.stderr).not.toContain('MCPG131');
    expect(spec).toMatch(/contentEncoding: base64/);
    expect(r.stderr).toContain('wrote specs/pets/openapi.yaml (6 tools bound to their operations with `http:`); created specs/pets.yaml');
    const check = await cli(['check', 'specs/pets.yaml'], dir);
    expect(check.code, check.stderr).toBe(0);
  });

  it("Swagger 2.0: the body parameter named `body` is the `body` argument (no parameter takes the name)", async () => {
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    const imported = await importOpenApi('test/fixtures/openapi/oas-examples/swagger-2.0-petstore.json', ROOT);
    const addPet = (imported.spec.tools as { name: string; input: { properties: Record<string, unknown> } }[]).find((t) => t.name === 'addPet')!;
    expect(Object.keys(addPet.input.properties)).toEqual(['body']);
    expect(httpOf(imported.spec, 'addPet').body).toBe('body');
    // collectionFormat multi is OpenAPI's default (form, exploded): nothing recorded.
    expect(httpOf(imported.spec, 'findPetsByStatus').params).toEqual({ status: 'query' });
  });

  it("operation security overrides the document's; security: [] is none; neither: absent (every scheme)", async () => {
    const dir = tempDir();
    const op = (id: string, extra: object) => ({ get: { operationId: id, responses: { 200: { description: 'ok' } }, ...extra } });
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'x-key' }, token: { type: 'http', scheme: 'bearer' } } },
      paths: { '/a': op('a', {}), '/b': op('b', { security: [{ token: [] }] }), '/c': op('c', { security: [] }), '/d': op('d', { security: [{ key: [] }, { token: [] }] }) },
    };
    writeFileSync(join(dir, 'sec.json'), JSON.stringify(doc));
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    const { spec } = await importOpenApi('sec.json', dir, { name: 'api' });
    expect(['a', 'b', 'c', 'd'].map((t) => httpOf(spec, t).security)).toEqual([['key'], ['token'], [], ['key', 'token']]);
    delete (doc as { security?: unknown }).security;
    writeFileSync(join(dir, 'sec.json'), JSON.stringify(doc));
    expect(httpOf((await importOpenApi('sec.json', dir, { name: 'api' })).spec, 'a').security).toBeUndefined();
  });

  it('query style and explode reach the binding when they are not the default; 2.0 csv is form without explode', async () => {
    const dir = tempDir();
    const param = (name: string, extra: object) => ({ name, in: 'query', schema: { type: 'array', items: { type: 'string' } }, ...extra });
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { operationId: 'x', responses: { 200: { description: 'ok' } }, parameters: [
        param('a', {}), param('b', { explode: false }), param('c', { style: 'pipeDelimited' }), param('d', { style: 'spaceDelimited', explode: true }),
        { name: 'e', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
      ] } } },
    };
    writeFileSync(join(dir, 'styles.json'), JSON.stringify(doc));
    const swagger = { swagger: '2.0', info: { title: 't', version: '1' }, paths: { '/y': { get: { operationId: 'y', responses: { 200: { description: 'ok' } }, parameters: [{ name: 'f', in: 'query', type: 'array', items: { type: 'string' } }] } } } };
    writeFileSync(join(dir, 'swagger.json'), JSON.stringify(swagger));
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    expect(httpOf((await importOpenApi('styles.json', dir)).spec, 'x').params).toEqual({
      a: 'query', b: { in: 'query', explode: false }, c: { in: 'query', style: 'pipeDelimited' }, d: { in: 'query', style: 'spaceDelimited', explode: true }, e: { in: 'query', style: 'deepObject', explode: true },
    });
    expect(httpOf((await importOpenApi('swagger.json', dir)).spec, 'y').params).toEqual({ f: { in: 'query', style: 'form', explode: false } });
  });

  it("Swagger 2.0: an operation's own `consumes` replaces the document's (raw bytes, not JSON)", async () => {
    const dir = tempDir();
    const body = (name: string) => [{ name, in: 'body', required: true, schema: { type: 'string', format: 'binary' } }];
    const swagger = {
      swagger: '2.0', info: { title: 't', version: '1' }, consumes: ['application/json'],
      paths: {
        '/upload': { post: { operationId: 'upload', consumes: ['application/octet-stream'], parameters: body('data'), responses: { 200: { description: 'ok' } } } },
        '/note': { post: { operationId: 'note', parameters: [{ name: 'n', in: 'body', schema: { type: 'object', properties: { a: { type: 'string' } } } }], responses: { 200: { description: 'ok' } } } },
      },
    };
    writeFileSync(join(dir, 'consumes.json'), JSON.stringify(swagger));
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    const { spec } = await importOpenApi('consumes.json', dir);
    expect(httpOf(spec, 'upload').body).toEqual({ property: 'body', contentType: 'application/octet-stream' });
    const upload = (spec.tools as { name: string; input: { properties: Record<string, unknown> } }[]).find((t) => t.name === 'upload')!;
    expect(upload.input.properties.body).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    expect(httpOf(spec, 'note').body).toBe('body');
  });

  it('a long info.description becomes a short server description (first paragraph, at most 400 characters)', async () => {
    const dir = tempDir();
    const long = `Manage pages. ${'All about the pages API, in great detail. '.repeat(400)}`;
    const doc = { openapi: '3.0.3', info: { title: 't', version: '1', description: long }, paths: {} };
    writeFileSync(join(dir, 'long.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 'paras.json'), JSON.stringify({ ...doc, info: { ...doc.info, description: 'First paragraph.\n\nSecond one, with the details.' } }));
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    const server = async (file: string) => (await importOpenApi(file, dir)).spec.server as { description: string };
    const short = (await server('long.json')).description;
    expect(short.length).toBeLessThanOrEqual(400);
    expect(short).toMatch(/^Manage pages\. All about the pages API, in great detail\..*\.$/);
    expect((await server('paras.json')).description).toBe('First paragraph.');
  });

  it("a re-import removes the handlers file an earlier import wrote (still marked), never the team's", async () => {
    const dir = tempDir();
    const handlers = join(dir, 'generated/pets/handlers.ts');
    mkdirSync(join(dir, 'generated/pets'), { recursive: true });
    writeFileSync(handlers, `${IMPORT_MARK} from "petstore.json".\nexport const handlers = httpProxy(/* stale */);\n`);
    const first = await cli(['import', 'openapi', PETSTORE, '--name', 'pets'], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('removed generated/pets/handlers.ts, the proxy handlers an earlier import wrote');
    expect(existsSync(handlers)).toBe(false);
    writeFileSync(handlers, '// mine now\n');
    expect((await cli(['import', 'openapi', PETSTORE, '--name', 'pets'], dir)).code).toBe(0);
    expect(readFileSync(handlers, 'utf8')).toBe('// mine now\n');
  });

  it('path parameters the template and the description disagree on: an undeclared {var} becomes a required string, a stray one is left out', async () => {
    const dir = tempDir();
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: { '/items/{id}/parts/{part}': { get: { operationId: 'part', responses: { 200: { description: 'ok' } }, parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'ghost', in: 'path', required: true, schema: { type: 'string' } },
      ] } } },
    };
    writeFileSync(join(dir, 'parts.json'), JSON.stringify(doc));
    const r = await cli(['import', 'openapi', 'parts.json', '--name', 'parts'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/MCPG11[4-6]/);
    const { importOpenApi } = await import('../../src/import/openapi/index.js');
    const { spec } = await importOpenApi('parts.json', dir, { name: 'parts' });
    expect(httpOf(spec, 'part').params).toEqual({ id: 'path', part: 'path' });
    const input = (spec.tools as { input: { properties: Record<string, unknown>; required: string[] } }[])[0]!.input;
    expect([Object.keys(input.properties), input.required]).toEqual([['id', 'part'], ['id', 'part']]);
  });

  it('an unreadable description: MCPG130, exit 1, nothing written', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in/bad.yaml'), 'openapi: [unclosed\n');
    const r = await cli(['import', 'openapi', 'in/bad.yaml'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in\/bad\.yaml:\d+:\d+ error MCPG130/);
    expect(existsSync(join(dir, 'specs'))).toBe(false);
  });

  it('usage errors', async () => {
    expect((await cli(['import', 'swagger', 'x.json'])).code).toBe(2);
    expect((await cli(['import', 'openapi'])).code).toBe(2);
  });
});
