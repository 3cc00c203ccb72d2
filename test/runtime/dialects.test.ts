// Run-time validation in the dialect a schema names (packages/runtime/src/shared/dialects.ts): a
// draft-07 tuple with additionalItems means something else under 2020-12, where `items` is one schema.
import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../packages/runtime/src/shared/dialects.js';
import { createValidatorCompiler } from '../../packages/runtime/src/server/core/validators.js';

describe('dialectOf', () => {
  it('maps $schema to a dialect, with or without the empty fragment; absent is 2020-12; others undefined', () => {
    expect(dialectOf({})).toBe('2020-12');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('7');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema' })).toBe('7');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBeUndefined();
  });
});

describe('the server validates in the schema\'s dialect', () => {
  const compile = createValidatorCompiler();
  it('draft-07: tuple items and additionalItems (2020-12 would accept the extra item)', () => {
    const validate = compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, mode: { $ref: '#/definitions/Mode' } },
      definitions: { Mode: { enum: ['a', 'b'] } },
    });
    expect(validate({ pair: ['x', 1] })).toBeUndefined();
    expect(validate({ pair: ['x', 1, 'extra'] })).toBeDefined();
    expect(validate({ pair: [1, 'x'] })).toBeDefined();
    expect(validate({ mode: 'c' })).toBeDefined();
    expect(validate({ mode: 'a' })).toBeUndefined();
  });

  it('draft-07 with the spec $defs mcpgen bundles in (a $ref to #/$defs/…) and 2019-09 both resolve', () => {
    const d07 = compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { mode: { $ref: '#/$defs/Mode' } }, $defs: { Mode: { enum: ['a'] } } });
    expect(d07({ mode: 'a' })).toBeUndefined();
    expect(d07({ mode: 'b' })).toBeDefined();
    const d19 = compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] });
    expect(d19({ n: 1 })).toBeUndefined();
    expect(d19({ n: 0 })).toBeDefined();
    expect(d19({})).toBeDefined();
  });

  it('an unknown format is ignored (JSON Schema 2020-12 §7.2.3)', () => {
    const validate = compile({ type: 'object', properties: { blob: { type: 'string', format: 'json' } } });
    expect(validate({ blob: 'not json at all {' })).toBeUndefined();
  });
});
