// The spec-format and config validators are ajv standalone code generated at build time
// (scripts/precompile-validators.mjs). They must say exactly what compiling the packaged schemas at run
// time said: same errors (so the same diagnostics) on every invalid fixture, and the file must be current.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '@mcpgen/runtime/shared';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { parseSource } from '../../src/parse/source.js';
import { configSchema, specSchema } from '../../src/validate/precompiled-validators.js';
import { validateSpecFormat } from '../../src/validate/spec-format.js';
// @ts-expect-error a plain .mjs build script, no types
import { OUTPUT, precompiledValidatorsSource } from '../../scripts/precompile-validators.mjs';
import { ROOT } from '../helpers.js';

const runtimeCompiled = (file: string): ValidateFunction => createAjv({ verbose: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as object);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/**
 * Every field of every error, parentSchema and data included: spec-format.ts builds diagnostics from these
 * alone (with the source for positions), so equal errors mean equal diagnostics.
 */
function errorsOf(validate: ValidateFunction, value: unknown): ErrorObject[] {
  validate(value);
  return structuredClone(validate.errors ?? []);
}

describe('precompiled packaged-schema validators', () => {
  it('is current: regenerating it from schema/*.json gives the committed file', () => {
    expect(readFileSync(OUTPUT as string, 'utf8')).toBe((precompiledValidatorsSource as () => string)());
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
});
