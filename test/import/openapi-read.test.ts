// Reading the description (src/import/openapi/read.ts): a document whose `$ref`s all point into itself is
// used as parsed, without swagger-parser's bundle(); one that refers to other files (or nests `$id`
// resources) is bundled as before. Either way the document is the one bundle() returns.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readDescription } from '../../src/import/openapi/read.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { cli, ROOT, tempDir } from '../helpers.js';

const FIXTURES = join(ROOT, 'test/fixtures/openapi');
const info = { title: 'Pets', version: '1.0.0' };
const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } };

/** Pets across three files: the root refers to the others, pet.yaml's Pet refers to itself (a cycle) and to tag.yaml. */
function multiFile(dir: string): string {
  mkdirSync(join(dir, 'parts'), { recursive: true });
  writeFileSync(join(dir, 'parts/tag.yaml'), stringify({ Tag: { type: 'object', properties: { label: { type: 'string' } } } }));
  writeFileSync(join(dir, 'parts/pet.yaml'), stringify({
    Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, parent: { $ref: '#/Pet' }, tags: { type: 'array', items: { $ref: 'tag.yaml#/Tag' } } } },
    limit: { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
  }));
  writeFileSync(join(dir, 'api.yaml'), stringify({
    openapi: '3.0.3',
    info,
    servers: [{ url: 'https://pets.example.com' }],
    paths: {
      '/pets': { get: { operationId: 'listPets', parameters: [{ $ref: 'parts/pet.yaml#/limit' }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: 'parts/pet.yaml#/Pet' } } } } } } } },
      '/pets/{id}': { get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 'parts/pet.yaml#/Pet' } } } } } } },
    },
  }));
  return join(dir, 'api.yaml');
}

describe('readDescription', () => {
  const vendored = [
    ...readdirSync(join(FIXTURES, 'oas-examples')).filter((f) => f.endsWith('.json')).map((f) => join(FIXTURES, 'oas-examples', f)),
    join(FIXTURES, 'MCPG131-media-range.yaml'),
    join(FIXTURES, 'MCPG132-security.yaml'),
  ];
  for (const file of vendored) {
    it(`${file.slice(FIXTURES.length + 1)}: the document bundle() returns`, async () => {
      expect((await readDescription(file)).doc).toEqual(await new SwaggerParser().bundle(file));
    });
  }

  it('a description in three files, with a cycle: bundled, as bundle() does it', async () => {
    const file = multiFile(tempDir());
    const read = await readDescription(file);
    expect(read.doc).toEqual(await new SwaggerParser().bundle(file));
    expect(JSON.stringify(read.doc)).not.toMatch(/"\$ref":"[^#]/);
  });

  it('a schema with its own $id is bundled (its pointers resolve against it)', async () => {
    const dir = tempDir();
    const doc = { openapi: '3.1.0', info, paths: {}, components: { schemas: { Box: { $id: 'https://example.com/box.json', type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } } } } };
    writeFileSync(join(dir, 'id.json'), JSON.stringify(doc));
    expect((await readDescription(join(dir, 'id.json'))).doc).toEqual(await new SwaggerParser().bundle(join(dir, 'id.json')));
  });

  it('a pointer to nothing fails as in bundle()', async () => {
    const dir = tempDir();
    const doc = { openapi: '3.0.3', info, paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }], responses: { 200: { description: 'ok' } } } } } };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(doc));
    const bundled = await new SwaggerParser().bundle(join(dir, 'broken.json')).then(() => 'resolved', (e: Error) => e.message);
    expect(bundled).toMatch(/Missing \$ref pointer "#\/components\/parameters\/Nope"/);
    await expect(readDescription(join(dir, 'broken.json'))).rejects.toThrow(bundled);
  });
});

describe('import openapi of a description in several files', () => {
  it('external schemas and parameters, a cycle: the cycle is a $ref into $defs, the rest inlined, the spec checks', async () => {
    const dir = tempDir();
    multiFile(dir);
    const r = await cli(['import', 'openapi', 'api.yaml', '--name', 'pets'], dir);
    expect(r.code, r.stderr).toBe(0);
    const { spec } = await importOpenApi('api.yaml', dir, { name: 'pets' });
    // bundle() inlines the first use of pet.yaml#/Pet and points the others at it; the import hoists that one.
    const pet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, parent: { $ref: '#/$defs/schema' }, tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } } } };
    expect(spec.$defs).toEqual({ schema: pet });
    const tools = spec.tools as { name: string; input: { properties: Record<string, unknown> }; output?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(['listPets', 'getPet']);
    expect(tools[0]!.input.properties.limit).toEqual({ type: 'integer', maximum: 100 });
    expect(tools[1]!.output).toEqual(pet);
  });

  it('a $ref to a $ref (left unbundled): the chain is a $defs entry referring to the next, and the spec checks', async () => {
    const dir = tempDir();
    const doc = {
      openapi: '3.0.3',
      info,
      paths: { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/P' }], responses: ok } } },
      components: {
        parameters: { P: { $ref: '#/components/parameters/Q' }, Q: { name: 'q', in: 'query', schema: { $ref: '#/components/schemas/Alias' } } },
        schemas: { Alias: { $ref: '#/components/schemas/Pet' }, Pet: { type: 'object', properties: { self: { $ref: '#/components/schemas/Alias' }, name: { type: 'string' } } } },
      },
    };
    writeFileSync(join(dir, 'chain.json'), JSON.stringify(doc));
    const r = await cli(['import', 'openapi', 'chain.json', '--name', 'chain'], dir);
    expect(r.code, r.stderr).toBe(0);
    const { spec } = await importOpenApi('chain.json', dir, { name: 'chain' });
    expect((spec.$defs as Record<string, unknown>).Alias).toEqual({ $ref: '#/$defs/Pet' });
    expect((spec.tools as { input: { properties: Record<string, unknown> } }[])[0]!.input.properties.q).toEqual({ $ref: '#/$defs/Alias' });
  });
});
