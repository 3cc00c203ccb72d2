// `overrides:` — the root spec patches entries of its includes (RFC 7396 merge patch) before any rule
// runs: the model sees the patched entries, and a problem the patch wrote is reported at the override.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/common/merge-patch.js';
import { formatPath, parsePath } from '../../src/diagnostics/diagnostic.js';
import { check } from '../../src/pipeline.js';
import { checkText, ROOT } from '../helpers.js';

describe('mergePatch: the examples of RFC 7396 Appendix A', () => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, want] of cases) {
    it(`${JSON.stringify(target)} + ${JSON.stringify(patch)}`, () => {
      const before = JSON.stringify(target);
      expect(mergePatch(target, patch)).toEqual(want);
      expect(JSON.stringify(target)).toBe(before); // the parsed file's value is shared: never changed
    });
  }

  it('keeps the order of the keys it had; a __proto__ key stays a key', () => {
    const patched = mergePatch({ b: 1, a: 2 }, JSON.parse('{"c": 3, "a": 4, "__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.keys(patched)).toEqual(['b', 'a', 'c', '__proto__']);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

it('parsePath reads formatPath back', () => {
  for (const path of [[], ['tools', 2, 'input', 'properties', 'my-field'], ['overrides', 'resources', 'file:///a b'], ['$defs', 'A', '0', 1, 'x"y']]) {
    expect(parsePath(formatPath(path))).toEqual(path);
  }
});

describe('overrides of included entries (test/fixtures/overrides/pets.yaml)', () => {
  const result = check([join(ROOT, 'test/fixtures/overrides/pets.yaml')], ROOT);
  const model = result.models[0]!;
  const tool = (name: string) => model.tools.find((t) => t.name === name);

  it('checks clean and the model holds the patched entries', () => {
    expect(result.diagnostics).toEqual([]);
    expect(model.tools.map((t) => t.name)).toEqual(['listPets', 'pet_get']);
  });

  it('description, annotations (null removes a hint), scopes, timeoutMs, rateLimit, a property description and an x-mcp-header', () => {
    const list = tool('listPets')!;
    expect(list.description).toBe('Lists the pets in the store, newest first.');
    expect(list.title).toBe('List pets'); // untouched keys stay
    expect(list.annotations).toEqual({ readOnlyHint: true });
    expect(list.scopes).toEqual(['pets.read']);
    expect(list.timeoutMs).toBe(5000);
    expect(model.rateLimits?.tools).toEqual({ listPets: expect.anything() });
    expect(list.inputSchema).toMatchObject({ properties: { limit: { type: 'integer', description: 'At most this many pets.' }, tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } });
    expect(list.headers).toEqual([{ header: 'Tenant', path: ['tenant'], type: 'string' }]);
  });

  it('a rename renames the handler method and types; a task setting; a tool patched to null is gone; prompts too', () => {
    const get = tool('pet_get')!;
    expect([get.method, get.inputType, get.description]).toEqual(['petGet', 'PetGetInput', 'Finds a pet.']);
    expect(get.task?.support).toBe('optional');
    expect(tool('getPetById')).toBeUndefined();
    expect(tool('deletePet')).toBeUndefined();
    expect(model.prompts.map((p) => [p.name, p.title, p.description])).toEqual([['adopt', 'Adopt a pet', 'Helps adopt a pet.']]);
  });

  it('a $defs entry, by name: every tool using it through $ref gets the patched schema', () => {
    const pet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string', description: 'What the pet answers to.' } } };
    expect(model.defs.find((d) => d.name === 'Pet')!.schema).toEqual(pet);
    expect(tool('pet_get')!.outputSchema).toMatchObject({ $defs: { Pet: pet } });
  });
});

it('resources by URI, templates by URI template: patched, renamed (uri:) and dropped', () => {
  const include = 'resources:\n  - { uri: "file:///a.md", name: a }\n  - { uri: "file:///b.md", name: b }\nresourceTemplates:\n  - { uriTemplate: "file:///{path}", name: files }\n';
  const overrides = 'overrides:\n  resources:\n    "file:///a.md": { uri: "file:///readme.md", mimeType: text/markdown }\n    "file:///b.md": null\n  resourceTemplates:\n    "file:///{path}": { description: Any file. }\n';
  const r = checkText(`mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [more.yaml]\n${overrides}`, { 'more.yaml': include });
  expect(r.diagnostics).toEqual([]);
  expect(r.models[0]!.resources.map((x) => [x.uri, x.name, x.mimeType])).toEqual([['file:///readme.md', 'a', 'text/markdown']]);
  expect(r.models[0]!.resourceTemplates.map((x) => x.description)).toEqual(['Any file.']);
});

describe('what an override gets wrong is reported at the override', () => {
  const include = '$defs:\n  Tenant: { type: string }\ntools:\n  - name: listPets\n    input:\n      type: object\n      properties:\n        tenant: { type: array, items: { type: string } }\n  - name: getPetById\n    input: { type: object, properties: { petId: { type: integer } }, required: [petId] }\n';
  const run = (overrides: string, extraRoot = '') =>
    checkText(`mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [imported.yaml]\n${extraRoot}overrides:\n  tools:\n${overrides}`, { 'imported.yaml': include }).diagnostics.map((d) => [d.file.replace(/.*\//, ''), d.code, d.line, d.column, d.path, d.message]);

  it('a misspelt key: MCPG003 with "did you mean", at the key in the override', () => {
    expect(run('    listPets:\n      descripton: Lists.\n')).toEqual([
      ['spec.yaml', 'MCPG003', 7, 7, 'overrides.tools.listPets.descripton', 'unknown key "descripton" in "overrides.tools.listPets"; did you mean "description"?'],
    ]);
  });

  it('a wrong type, and a patch that removes the required name: at the override, the entry left out', () => {
    const got = run('    listPets:\n      timeoutMs: soon\n    getPetById:\n      name: null\n');
    expect(got).toEqual([
      ['spec.yaml', 'MCPG004', 7, 18, 'overrides.tools.listPets.timeoutMs', '"overrides.tools.listPets.timeoutMs" must be an integer, got the string "soon"'],
      ['spec.yaml', 'MCPG005', 9, 7, 'overrides.tools.getPetById', 'missing required key "name" in "overrides.tools.getPetById"'],
    ]);
  });

  it("a rule's finding about a value the override wrote moves to the override: a bad header, a duplicate name", () => {
    const got = run('    listPets:\n      input: { properties: { tenant: { x-mcp-header: "Bad Header" } } }\n    getPetById:\n      name: listPets\n');
    expect(got.map(([file, code, line, , path]) => [file, code, line, path])).toEqual([
      ['spec.yaml', 'MCPG013', 7, 'overrides.tools.listPets.input.properties.tenant.x-mcp-header'],
      ['spec.yaml', 'MCPG011', 9, 'overrides.tools.getPetById.name'],
    ]);
  });

  it('a $defs override: what it breaks is reported at it; one naming no schema is MCPG151', () => {
    const got = run('    listPets: { description: x }\n  $defs:\n    Tenant: { type: strin }\n    Tenat: { description: y }\n');
    expect(got.map(([file, code, line, , path]) => [file, code, line, path])).toEqual([
      ['spec.yaml', 'MCPG019', 8, 'overrides.$defs.Tenant.type'],
      ['spec.yaml', 'MCPG151', 9, 'overrides.$defs.Tenat'],
    ]);
  });

  it('a finding about a part the override did not write stays in the include and names the override', () => {
    // The override removes a property the include's `required` still names (MCPG021, at `required`).
    expect(run('    getPetById:\n      input: { properties: { petId: null } }\n')).toEqual([
      ['imported.yaml', 'MCPG021', 10, 81, 'tools[1].input.required[0]', '"required" names "petId", which is not among the properties (none) in input schema of tool "getPetById" (the tool as changed by overrides.tools.getPetById at spec.yaml:6:5)'],
    ]);
  });

  it('an override of an entry with format errors of its own: those errors, not also MCPG151', () => {
    const r = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [more.yaml]\noverrides:\n  tools:\n    t: { description: T. }\n', { 'more.yaml': 'tools:\n  - { name: t, timeoutMs: soon }\n' });
    expect(r.diagnostics.map((d) => [d.code, d.file.replace(/.*\//, ''), d.line])).toEqual([['MCPG004', 'more.yaml', 2]]);
  });

  it('overrides match names as declared: a rename does not make a tool the target of another override', () => {
    const r = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [more.yaml]\noverrides:\n  tools:\n    a: { name: c }\n    c: { name: d, description: Was c. }\n', { 'more.yaml': 'tools:\n  - { name: a, description: Was a. }\n  - { name: c }\n' });
    expect(r.diagnostics).toEqual([]);
    expect(r.models[0]!.tools.map((t) => [t.name, t.description])).toEqual([['c', 'Was a.'], ['d', 'Was c.']]);
  });

  it('an override in an included file is MCPG008 (root only)', () => {
    const r = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [more.yaml]\n', { 'more.yaml': 'overrides:\n  tools: {}\n' });
    expect(r.diagnostics.map((d) => [d.code, d.file.replace(/.*\//, ''), d.line, d.message])).toEqual([['MCPG008', 'more.yaml', 1, '"overrides" belongs in the root spec, not in an included file']]);
  });

  it('a toolset naming a dropped or renamed tool says so (MCPG160)', () => {
    const r = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ninclude: [imported.yaml]\ntoolsets:\n  pets: { tools: [getPetById] }\noverrides:\n  tools:\n    getPetById: { name: pet_get }\n', { 'imported.yaml': include });
    expect(r.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([['MCPG160', 5, 'toolset "pets" lists tool "getPetById", which the spec does not declare']]);
  });
});
