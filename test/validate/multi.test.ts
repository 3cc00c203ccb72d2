import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

describe('every problem in one run', () => {
  it('reports all problems of a file with several, sorted by position', () => {
    const result = checkText(`mcpgen: 1
server:
  name: many
  version: 1.0.0
  titel: oops
tools:
  - name: execute sql
    input:
      type: object
      properties:
        region: { type: string, x-mcp-header: Region }
        zone: { type: number, x-mcp-header: region }
      required: [region, missing]
  - name: fine
    progress: maybe
resources:
  - uri: not-a-uri
    name: r
prompts:
  - name: p
    arguments: [{ name: a }, { name: a }]
`);
    expect(result.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([
      'MCPG003@5:3',
      'MCPG010@7:11',
      'MCPG015@12:15',
      'MCPG014@12:45',
      'MCPG021@13:26',
      'MCPG004@15:15',
      'MCPG024@17:10',
      'MCPG027@21:38',
    ]);
    expect(result.models).toHaveLength(0);
  });

  it('keeps checking other entries when one has a format error', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: '1' }
tools:
  - name: 42
  - name: ok
    input: { type: object, properties: { n: { type: integer, default: "x" } } }
`);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MCPG004', 'MCPG022']);
  });

  it('never throws on odd documents', () => {
    for (const text of ['', '---', '[]', '42', 'null', '"text"', 'a: [', '\u0000', 'mcpgen: 1\nserver: []', 'mcpgen: 1\nserver: {name: s, version: "1"}\ntools: {}', 'mcpgen: 1\nserver: {name: s, version: "1"}\ntools: [null, 3, []]']) {
      const result = checkText(text);
      expect(result.diagnostics.length, JSON.stringify(text)).toBeGreaterThan(0);
      for (const d of result.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
    }
  });

  it('reports invalid UTF-8 with a position', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers.js');
    const { check } = await import('../../src/pipeline.js');
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.yaml'), Buffer.concat([Buffer.from('mcpgen: 1\nserver:\n  name: caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]));
    const result = check([join(dir, 'bad.yaml')], dir);
    expect(result.diagnostics[0]).toMatchObject({ code: 'MCPG001', line: 3, column: 12 });
    expect(result.diagnostics[0]!.message).toContain('not valid UTF-8');
  });
});

describe('includes and $defs', () => {
  it('merges included files and bundles the $defs a tool uses into its schema', () => {
    const result = checkText(
      `mcpgen: 1
server: { name: inc, version: '1' }
include: [parts/*.yaml]
$defs:
  Id: { type: string, pattern: '^[a-z]+$' }
tools:
  - name: get
    input: { type: object, properties: { id: { $ref: '#/$defs/Id' }, page: { $ref: '#/$defs/Page' } } }
`,
      { 'parts/a.yaml': `$defs:\n  Page: { type: object, properties: { size: { $ref: '#/$defs/Size' } } }\n  Size: { type: integer, minimum: 1 }\ntools:\n  - name: put\n`, 'parts/b.yaml': 'prompts:\n  - name: hello\n' },
    );
    expect(result.diagnostics).toEqual([]);
    const model = result.models[0]!;
    expect(model.tools.map((t) => t.name)).toEqual(['get', 'put']);
    expect(model.prompts.map((p) => p.name)).toEqual(['hello']);
    expect(Object.keys(model.tools[0]!.inputSchema.$defs as object)).toEqual(['Id', 'Page', 'Size']);
    expect(model.tools[1]!.inputSchema).toEqual({ type: 'object', additionalProperties: false });
  });

  it('refuses root-only keys in included files and points into that file', () => {
    const result = checkText(`mcpgen: 1\nserver: { name: s, version: '1' }\ninclude: [part.yaml]\n`, { 'part.yaml': 'server: { name: x, version: "2" }\n' });
    expect(result.diagnostics).toMatchObject([{ code: 'MCPG008', file: 'part.yaml', line: 1, column: 1 }]);
  });

  it('refuses external $ref (MCP forbids fetching schemas)', () => {
    const result = checkText(`mcpgen: 1\nserver: { name: s, version: '1' }\ntools:\n  - name: t\n    input: { type: object, properties: { a: { $ref: 'https://example.com/a.json' } } }\n`);
    expect(result.diagnostics).toMatchObject([{ code: 'MCPG023', line: 5, column: 53 }]);
  });
});

describe('derived model', () => {
  it('derives capabilities and header paths', () => {
    const result = checkText(`mcpgen: 1
server: { name: my-server, version: '1' }
capabilities: { prompts: { listChanged: true } }
tools:
  - name: q
    input:
      type: object
      properties:
        opts: { type: object, properties: { region: { type: string, x-mcp-header: Region } } }
`);
    expect(result.diagnostics).toEqual([]);
    const m = result.models[0]!;
    expect(m.typeStem).toBe('MyServer');
    expect(m.capabilities).toEqual({ tools: { listChanged: false }, prompts: { listChanged: true }, completions: false });
    expect(m.tools[0]!.headers).toEqual([{ header: 'Region', path: ['opts', 'region'], type: 'string' }]);
    expect(Object.isFrozen(m.tools[0])).toBe(true);
  });
});

describe('nesting limits', () => {
  it('refuses values nested past the limits (ajv scans nested lists in exponential time)', () => {
    const deepList = `${'['.repeat(20)}1${']'.repeat(20)}`;
    const result = checkText(`mcpgen: 1\nserver: { name: s, version: '1' }\ntools:\n  - name: t\n    input: { type: object, properties: { a: { enum: [${deepList}] } } }\n`);
    expect(result.diagnostics).toMatchObject([{ code: 'MCPG004', line: 5, message: 'lists nested deeper than 12 levels are not supported' }]);
  });
});

describe('generated names', () => {
  it('keeps method names clear of the client base class', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: '1' }
tools: [{ name: close }, { name: list_all_tools }]
resourceTemplates: [{ uriTemplate: 'x://{id}', name: template }]
resources: [{ uri: 'x://r', name: resource }]
prompts: [{ name: p }]
`);
    expect(result.diagnostics).toEqual([]);
    const m = result.models[0]!;
    expect(m.tools.map((t) => t.method)).toEqual(['close_', 'listAllTools_']);
    expect(m.resourceTemplates[0]!.method).toBe('readTemplate_');
    expect(m.resources[0]!.method).toBe('readResource_');
  });
});
