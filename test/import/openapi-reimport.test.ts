// Issue 28: a re-import keeps the team's edits. The import owns specs/<name>/openapi.yaml and rewrites it;
// the team's specs/<name>.yaml (created once) includes it and changes its tools under `overrides:`.
// End to end: import a vendored petstore, override (description, property description, x-mcp-header,
// rename, drop, a shared $defs schema), re-import a changed description (one operation added, two
// descriptions changed), generate, compile strictly, serve on 127.0.0.1 and look through the official client: the overrides are
// on the wire and the proxied calls reach a fake upstream (also on 127.0.0.1) at the right operation.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compilePackage } from '../support/generated-package.js';
import { cli, ROOT, tempDir } from '../helpers.js';

const PETSTORE = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/openapi/oas-examples/openapi-3.0-petstore.json'), 'utf8')) as { paths: Record<string, Record<string, { description?: string }>> };
const IMPORT = ['import', 'openapi', 'petstore.json', '--name', 'pets', '--tag', 'pet'];

/** The petstore as the API's owners changed it since the first import. */
function changedPetstore(): unknown {
  const doc = structuredClone(PETSTORE);
  doc.paths['/pet/{petId}']!.get!.description = 'Returns a single pet, with its tags.';
  doc.paths['/pet']!.post!.description = 'Adds a pet; the store gives it an id.';
  doc.paths['/pet/{petId}/vaccinations'] = {
    get: {
      tags: ['pet'],
      operationId: 'listVaccinations',
      summary: "A pet's vaccinations",
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } },
    },
  } as never;
  return doc;
}

const OVERRIDES = `overrides:
  tools:
    getPetById:
      description: One pet, by its id.
      input:
        properties:
          petId: { description: "The pet's id, a number." }
    updatePetWithForm:
      input: { properties: { petId: { x-mcp-header: Pet-Id } } }
    findPetsByTags: { name: pets_by_tag }
    deletePet: null
  $defs:
    Pet:
      properties:
        name: { description: What the pet answers to. }
`;

describe('re-import keeps the root spec and its overrides', () => {
  it('rewrites only its own file, byte for byte the same for the same description', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const owned = readFileSync(join(dir, 'specs/pets/openapi.yaml'), 'utf8');
    const root = readFileSync(join(dir, 'specs/pets.yaml'), 'utf8').replace(/^overrides:\n {2}tools: \{\}\n/m, OVERRIDES);
    writeFileSync(join(dir, 'specs/pets.yaml'), root);
    const again = await cli(IMPORT, dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('kept specs/pets.yaml (yours: its overrides apply)');
    expect(readFileSync(join(dir, 'specs/pets/openapi.yaml'), 'utf8')).toBe(owned);
    expect(readFileSync(join(dir, 'specs/pets.yaml'), 'utf8')).toBe(root);
    // The usual config glob finds the root spec only: the owned file is in a folder of its own.
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs:\n  - specs/*.yaml\n');
    const checked = await cli(['check'], dir);
    expect(`${checked.code} ${checked.stderr}`).toMatch(/^0 1 spec file checked: 0 errors/);
  });

  it('refuses (exit 2) to rewrite its file once the banner is gone, unless --force', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const owned = join(dir, 'specs/pets/openapi.yaml');
    writeFileSync(owned, readFileSync(owned, 'utf8').split('\n').slice(1).join('\n'));
    const refused = await cli(IMPORT, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('specs/pets/openapi.yaml exists and is not the import\'s (its first line is not "# Written by `mcpgen import openapi`"); move your changes into specs/pets.yaml under `overrides:`');
    expect((await cli([...IMPORT, '--force'], dir)).code).toBe(0);
    expect(readFileSync(owned, 'utf8')).toMatch(/^# Written by `mcpgen import openapi`/);
  });

  it('an override of an operation the API dropped is MCPG151 after the re-import, not a crash', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const rootPath = join(dir, 'specs/pets.yaml');
    writeFileSync(rootPath, readFileSync(rootPath, 'utf8').replace(/^overrides:\n {2}tools: \{\}\n/m, OVERRIDES));
    const dropped = structuredClone(PETSTORE);
    delete dropped.paths['/pet/findByTags'];
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(dropped));
    const r = await cli(IMPORT, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/specs\/pets\.yaml:\d+:5 error MCPG151 overrides\.tools names tool "findPetsByTags", which no file of this spec declares/);
    expect(readFileSync(rootPath, 'utf8')).toContain('findPetsByTags: { name: pets_by_tag }');
  });

  it('the generated proxy binds the tools as the overrides name them, matched by the names the import declared', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const rootPath = join(dir, 'specs/pets.yaml');
    const swap = 'overrides:\n  tools:\n    findPetsByStatus: { name: findPetsByTags }\n    findPetsByTags: { name: by_tags }\n    deletePet: null\n';
    writeFileSync(rootPath, readFileSync(rootPath, 'utf8').replace(/^overrides:\n {2}tools: \{\}\n/m, swap));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const generated = await cli(['generate', 'specs/pets.yaml'], dir);
    expect(generated.code, generated.stderr).toBe(0);
    const upstream = readFileSync(join(dir, 'generated/pets/upstream.ts'), 'utf8');
    const pathOf = (method: string) => new RegExp(`\\n  ${method}: \\{\\s*method: "GET",\\s*path: "([^"]+)"`).exec(upstream)?.[1];
    expect([pathOf('byTags'), pathOf('findPetsByTags'), /\bdeletePet\b/.test(upstream)]).toEqual(['/pet/findByTags', '/pet/findByStatus', false]);
  });

  it('a root spec an older import wrote whole is replaced; a root without the include gets a warning', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    mkdirSync(join(dir, 'specs'));
    writeFileSync(join(dir, 'specs/pets.yaml'), '# Written by `mcpgen import openapi` from "petstore.json"; re-importing rewrites this file.\nmcpgen: 1\nserver: { name: pets, version: 1.0.0 }\ntools: []\n');
    expect((await cli(IMPORT, dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'specs/pets.yaml'), 'utf8')).toMatch(/^# This spec is yours/);
    writeFileSync(join(dir, 'specs/pets.yaml'), 'mcpgen: 1\nserver: { name: pets, version: 1.0.0 }\n');
    const r = await cli(IMPORT, dir);
    expect(r.stderr).toContain('warning: specs/pets.yaml does not include pets/openapi.yaml: add it under `include:` to serve the imported tools');
  });
});

describe('import → override → re-import → generate → tsc → serve: the overrides on the wire', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const seen: { method: string; url: string }[] = [];
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url! });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url!.includes('findByTags') ? [{ id: 1, name: 'Rex', photoUrls: [] }] : { id: 7, name: 'Rex', photoUrls: [] })));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));
  // The server's upstream URL, unset again: the file shares its worker process.
  afterAll(() => void vi.unstubAllEnvs());

  it('tools/list shows the overridden and re-imported descriptions, the header, the rename, the new tool; the dropped one is gone', async () => {
    // Inside the repository, so the generated code resolves @mcpgen/runtime and the SDK from node_modules.
    const dir = join(ROOT, '.tmp/openapi-reimport');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(PETSTORE));
    expect((await cli(IMPORT, dir)).code).toBe(0);
    const rootPath = join(dir, 'specs/pets.yaml');
    writeFileSync(rootPath, readFileSync(rootPath, 'utf8').replace(/^overrides:\n {2}tools: \{\}\n/m, OVERRIDES));
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(changedPetstore()));
    const reimported = await cli(IMPORT, dir);
    expect(reimported.code, reimported.stderr).toBe(0);
    expect(reimported.stderr).toContain('wrote specs/pets/openapi.yaml (9 tools bound to their operations');
    expect(readFileSync(rootPath, 'utf8')).toContain(OVERRIDES);

    const generated = await cli(['generate', 'specs/pets.yaml'], dir);
    expect(generated.code, generated.stderr).toBe(0);
    const pkg = join(dir, 'generated/pets');
    expect(compilePackage(pkg, join(dir, 'js'))).toEqual([]);

    vi.stubEnv('PETS_BASE_URL', `${upstreamUrl}/v2`);
    const { createPetsServer } = await import(join(dir, 'js/server.js'));
    const { handlers } = await import(join(dir, 'js/handlers.js'));
    const running = await createPetsServer(handlers).listen({ port: 0 });
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()].sort()).toEqual(['addPet', 'findPetsByStatus', 'getPetById', 'listVaccinations', 'pets_by_tag', 'updatePet', 'updatePetWithForm', 'uploadFile']);
      expect(byName.get('getPetById')!.description).toBe('One pet, by its id.'); // the override wins over the re-import
      expect((byName.get('getPetById')!.inputSchema.properties as Record<string, { description?: string }>).petId!.description).toBe("The pet's id, a number.");
      expect(byName.get('addPet')!.description).toContain('Adds a pet; the store gives it an id.'); // the re-import's
      expect((byName.get('updatePetWithForm')!.inputSchema.properties as Record<string, Record<string, unknown>>).petId!['x-mcp-header']).toBe('Pet-Id');
      // A shared schema patched once, in every tool that uses it.
      const petOf = (tool: string) => ((byName.get(tool)!.inputSchema.$defs as Record<string, { properties: Record<string, { description?: string }> }>).Pet!.properties.name!.description);
      expect([petOf('addPet'), petOf('updatePet')]).toEqual(['What the pet answers to.', 'What the pet answers to.']);

      seen.length = 0;
      const pet = await client.callTool({ name: 'getPetById', arguments: { petId: 7 } });
      expect(pet.isError, JSON.stringify(pet.content)).toBeFalsy();
      const byTag = await client.callTool({ name: 'pets_by_tag', arguments: { tags: ['a'] } });
      expect(byTag.isError, JSON.stringify(byTag.content)).toBeFalsy();
      expect(seen).toEqual([{ method: 'GET', url: '/v2/pet/7' }, { method: 'GET', url: '/v2/pet/findByTags?tags=a' }]);
    } finally {
      await client.close();
      await running.close(500);
    }
  }, 240_000); // tsc on two shared cores: a timeout, not a target
});
