// The import checks what it wrote without reading the owned file's YAML again (parse/known-values.ts): the
// check takes the value the text was written from. A finding in that file must still point at its
// file:line:col (yaml parses the text lazily for positions), and the value taken must be the one the text
// reads as: a text other than the one handed in is read as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetKnownValues, knowValue } from '../../src/parse/known-values.js';
import { diagnosticAt, parseSource } from '../../src/parse/source.js';
import { cli, tempDir } from '../helpers.js';
import { INVALID_SCHEMA_DESCRIPTION } from '../support/openapi-descriptions.js';

describe('import openapi: the check of what it wrote', () => {
  it('reports a finding in the owned file at its file:line:col, text and JSON', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.yaml'), INVALID_SCHEMA_DESCRIPTION);
    const text = await cli(['import', 'openapi', 'api.yaml', '--name', 'pets'], dir);
    expect(text.code).toBe(1);
    const owned = readFileSync(join(dir, 'specs/pets/openapi.yaml'), 'utf8').split('\n');
    const line = owned.findIndex((l) => l.includes('minLength: -1')) + 1;
    const column = owned[line - 1]!.indexOf('-1') + 1;
    expect(line).toBeGreaterThan(1);
    expect(text.stderr).toContain(`specs/pets/openapi.yaml:${line}:${column} error MCPG019 "minLength" must be >= 0 in input schema of tool "getPet", got number -1`);
    const json = await cli(['import', 'openapi', 'api.yaml', '--name', 'pets', '--format', 'json'], dir);
    const found = JSON.parse(json.stdout) as { code: string; file: string; line: number; column: number; path: string }[];
    expect(found.map(({ code, file, line, column, path }) => ({ code, file, line, column, path }))).toEqual([
      { code: 'MCPG019', file: 'specs/pets/openapi.yaml', line, column, path: 'tools[0].input.properties.id.minLength' },
    ]);
  });
});

describe('parse/known-values', () => {
  const text = 'tools:\n  - name: a\n    description: x\n';
  const bytes = (t: string) => new TextEncoder().encode(t);

  it('parseSource takes the value handed in for exactly that text; positions still come from the text', () => {
    const value = { tools: [{ name: 'a', description: 'x' }] };
    knowValue(text, value);
    try {
      const { source, diagnostics } = parseSource('s.yaml', bytes(text));
      expect(diagnostics).toEqual([]);
      expect(source.value).toBe(value);
      expect(diagnosticAt(source, ['tools', 0, 'description'], 'MCPG020', 'm')).toMatchObject({ file: 's.yaml', line: 3, column: 18 });
      // Another text (the file changed after it was written) is read as usual.
      const other = parseSource('s.yaml', bytes(`${text}# changed\n`)).source.value;
      expect(other).not.toBe(value);
      expect(other).toEqual(value);
    } finally {
      forgetKnownValues();
    }
    expect(parseSource('s.yaml', bytes(text)).source.value).not.toBe(value);
  });

  it('a value that would not read back as itself is not taken: the text is read', () => {
    const cases: [string, unknown][] = [
      ['tools:\n  - name: a\n', { tools: [{ name: 'a', description: undefined }] }],
      ['x:\n  - null\n', { x: [undefined] }],
      ['x: 2020-01-01T00:00:00.000Z\n', { x: new Date(0) }],
      ['x: {}\n', JSON.parse('{"x":{"__proto__":{}}}')],
    ];
    for (const [text, value] of cases) {
      knowValue(text, value);
      try {
        expect(parseSource('s.yaml', bytes(text)).source.value).not.toBe(value);
      } finally {
        forgetKnownValues();
      }
    }
  });

  it('the text checks still run: a control character is still MCPG001', () => {
    const bad = 'tools: []\nx: "\u0001"\n';
    knowValue(bad, { tools: [], x: '\u0001' });
    try {
      expect(parseSource('s.yaml', bytes(bad)).diagnostics.map((d) => d.code)).toEqual(['MCPG001']);
    } finally {
      forgetKnownValues();
    }
  });
});
