// `mcpgen import openapi <file> --generate` is `import` then `generate <spec>` in one process: the same
// spec files and the same generated tree, byte for byte (it hands the spec it wrote to the stages
// `generate` runs; issue 28). Checked on the vendored petstores, each description in two fresh folders.
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempDir } from '../helpers.js';
import { INVALID_SCHEMA_DESCRIPTION } from '../support/openapi-descriptions.js';

const FIXTURES = join(ROOT, 'test/fixtures/openapi/oas-examples');

/** Every file under `dir`, by relative path, with its bytes (hex: a difference shows as a diff). */
function tree(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).sort();
  return Object.fromEntries(files.map((f) => [f.replaceAll('\\', '/'), readFileSync(join(dir, f)).toString('hex')]));
}

/** A fresh folder holding the description as api.json (the same relative path in both runs). */
function folderWith(description: string): string {
  const dir = tempDir();
  copyFileSync(join(FIXTURES, description), join(dir, 'api.json'));
  return dir;
}

describe('import openapi --generate', () => {
  for (const description of ['swagger-2.0-petstore.json', 'openapi-3.0-petstore.json', 'openapi-3.1-petstore.json']) {
    it(`writes what import + generate write: ${description}`, async () => {
      const two = folderWith(description);
      expect((await cli(['import', 'openapi', 'api.json', '--name', 'pets'], two)).code).toBe(0);
      const generated = await cli(['generate', 'specs/pets.yaml'], two);
      expect(generated.code, generated.stderr).toBe(0);
      const one = folderWith(description);
      const r = await cli(['import', 'openapi', 'api.json', '--name', 'pets', '--generate'], one);
      expect(r.code, r.stderr).toBe(0);
      expect(Object.keys(tree(one))).toContain('generated/pets/upstream.ts');
      expect(tree(one)).toEqual(tree(two));
      expect(r.stderr).toContain('wrote specs/pets/openapi.yaml (');
      expect(r.stderr).not.toContain('next: npx mcpgen generate');
      // What `generate` would say of the output: current.
      expect((await cli(['generate', 'specs/pets.yaml', '--check'], one)).code).toBe(0);
    });
  }

  it('writes where the config says, and reports the import and the check as one JSON array', async () => {
    const dir = folderWith('openapi-3.0-petstore.json');
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [specs/*.yaml]\nout: build/mcp\n');
    const r = await cli(['import', 'openapi', 'api.json', '--name', 'pets', '--generate', '--format', 'json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(join(dir, 'build/mcp/pets/upstream.ts')).isFile()).toBe(true);
    const found = JSON.parse(r.stdout) as { code: string; file: string }[];
    // The petstore's security schemes the import skips (MCPG132) are reported against the description.
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.file === 'api.json')).toBe(true);
  });

  it('writes nothing generated when the check fails, and exits 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.yaml'), INVALID_SCHEMA_DESCRIPTION);
    const r = await cli(['import', 'openapi', 'api.yaml', '--name', 'pets', '--generate'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/specs\/pets\/openapi\.yaml:\d+:\d+ error MCPG019/);
    expect(Object.keys(tree(dir)).filter((f) => f.startsWith('generated/'))).toEqual([]);
  });
});
