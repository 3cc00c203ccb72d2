// The spec-format and config validators are ajv standalone code generated at build time
// (scripts/precompile-validators.mjs). They must say exactly what compiling the packaged schemas at run
// time said: same errors (so the same diagnostics) on every invalid fixture, and the file must be current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '@mcpgen/runtime/shared';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { parseSource } from '../../src/parse/source.js';
import { configSchema, specSchema } from '../../src/validate/precompiled-validators.js';
import { validateSpecFormat } from '../../src/validate/spec-format.js';
import { metaSchema2020 } from '../../src/validate/precompiled-meta-schema.js';
import { STRICT_AJV_OPTIONS } from '../../src/validate/rules/json-schema.js';
import { walkSchema } from '../../src/common/json-schema.js';
// @ts-expect-error a plain .mjs build script, no types
import { OUTPUTS, STRICT_OPTIONS } from '../../scripts/precompile-validators.mjs';
import { ROOT } from '../support/root.js';
import { yamlFiles } from '../support/yaml-files.js';

const runtimeCompiled = (file: string): ValidateFunction => createAjv({ verbose: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as object);


/**
 * Every field of every error, parentSchema and data included: spec-format.ts builds diagnostics from these
 * alone (with the source for positions), so equal errors mean equal diagnostics.
 */
function errorsOf(validate: ValidateFunction, value: unknown): ErrorObject[] {
  validate(value);
  return structuredClone(validate.errors ?? []);
}

describe('precompiled packaged-schema validators', () => {
  it('is current: regenerating them from the schemas gives the committed files', () => {
    const outputs = OUTPUTS as Record<string, () => string>;
    expect(Object.keys(outputs)).toHaveLength(2);
    for (const [file, make] of Object.entries(outputs)) expect(readFileSync(file, 'utf8'), file).toBe(make());
  });

  it('gives the same errors and diagnostics as the runtime-compiled schema on every invalid fixture (and the example specs)', () => {
    const spec = runtimeCompiled('schema/mcpgen.schema.json');
    const files = [...yamlFiles(join(ROOT, 'test/fixtures/invalid')), ...yamlFiles(join(ROOT, 'specs'))];
    let withErrors = 0;
    let diagnostics = 0;
    for (const file of files) {
      const parsed = parseSource(file, readFileSync(file));
      const value = parsed.source?.value;
      if (value === undefined || value === null || typeof value !== 'object') continue;
      const expected = errorsOf(spec, value);
      if (expected.length > 0) withErrors++;
      expect(errorsOf(specSchema as ValidateFunction, value), file).toEqual(expected);
      diagnostics += validateSpecFormat(parsed.source, 'root').diagnostics.length;
    }
    // The fixtures must exercise the validator, or this comparison proves nothing.
    expect(withErrors).toBeGreaterThanOrEqual(5);
    expect(diagnostics).toBeGreaterThanOrEqual(withErrors); // and validateSpecFormat runs on the precompiled one
  });

  it('gives the same errors for config files, valid and broken', () => {
    const config = runtimeCompiled('schema/mcpgen.config.schema.json');
    const cases: unknown[] = [
      { specs: ['specs/*.yaml'], out: 'generated' },
      { specs: [], out: 3 },
      { specs: ['a.yaml'], format: 'xml', extra: true },
      { out: '' },
      'not a mapping',
    ];
    for (const value of cases) expect(errorsOf(configSchema as ValidateFunction, value)).toEqual(errorsOf(config, value));
    expect(errorsOf(configSchema as ValidateFunction, cases[2]).length).toBeGreaterThan(0);
  });

  it('the meta-schema check gives the errors the strict ajv gives, on every schema in the fixtures and specs and on broken ones', () => {
    expect(STRICT_OPTIONS).toEqual(STRICT_AJV_OPTIONS); // compiled with the options the rules use
    const strict = createAjv({ ...STRICT_AJV_OPTIONS, logger: false });
    const meta = metaSchema2020 as unknown as ValidateFunction;
    const schemas: unknown[] = [
      { type: 'objekt' },
      { type: 'object', properties: { a: { type: 'string', minLength: -1 } }, required: 'a' },
      { type: ['string', 3], items: [true], $defs: { X: { enum: 'no' } }, anyOf: [] },
      { $ref: 5, pattern: 7, additionalProperties: 'x', 'x-mcp-header': 'Region' },
    ];
    for (const file of [...yamlFiles(join(ROOT, 'test/fixtures')), ...yamlFiles(join(ROOT, 'specs'))]) {
      const value = parseSource(file, readFileSync(file)).source?.value as Record<string, unknown> | undefined;
      for (const entry of [...((value?.tools as unknown[] | undefined) ?? []), ...Object.values((value?.$defs as object | undefined) ?? {})]) {
        const e = entry as Record<string, unknown>;
        for (const s of [e.input, e.output, e]) if (s !== null && typeof s === 'object') walkSchema(s as never, ({ schema }) => void schemas.push(schema));
      }
    }
    let invalid = 0;
    for (const schema of schemas) {
      if (typeof schema !== 'object' || schema === null || '$schema' in schema) continue;
      const expected = strict.validateSchema(schema as object) === true ? [] : structuredClone(strict.errors ?? []);
      if (expected.length > 0) invalid++;
      expect(meta(schema) === true ? [] : structuredClone(meta.errors ?? []), JSON.stringify(schema).slice(0, 200)).toEqual(expected);
    }
    expect(schemas.length).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThanOrEqual(4);
  });
});
