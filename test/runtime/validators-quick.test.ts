// The quick check (packages/runtime/src/server/core/validators-quick.ts) against @cfworker/json-schema, the
// validator that gives the verdict: on every schema it supports and many values near and far from
// valid, it must agree (a "valid" cfworker refuses would let bad arguments reach a handler), and it
// must really answer the common case (valid arguments of a simple schema) by itself.
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import type { definition as EverythingDefinition } from '../../generated/everything/definition.js';
import { quickCheck } from '../../packages/runtime/src/server/core/validators-quick.js';
import { createValidatorCompiler } from '../../packages/runtime/src/server/core/validators.js';
import { importCompiled } from '../support/servers.js';

const { definition } = await importCompiled<{ definition: typeof EverythingDefinition }>('everything', 'definition.js');

/** The benchmark's echo tool (bench/bench-spec.mjs, plain JavaScript: imported by URL). */
const { ECHO_INPUT } = (await import(new URL('../../bench/bench-spec.mjs', import.meta.url).href)) as { ECHO_INPUT: Record<string, unknown> };

const SCHEMAS: Record<string, unknown>[] = [
  ECHO_INPUT,
  { type: 'object', properties: { n: { type: 'integer', minimum: -3, exclusiveMaximum: 7 }, x: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 1.5 } }, required: ['n'] },
  { type: 'object', properties: { e: { enum: ['a', 1, null, true] }, c: { const: 0 } }, additionalProperties: false, minProperties: 1, maxProperties: 2 },
  { type: 'object', additionalProperties: { type: 'string', pattern: '^[a-zé]+$', minLength: 2, maxLength: 3 } },
  { type: 'array', items: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'] }, minItems: 1, maxItems: 2 },
  { type: 'object', properties: { s: { type: 'string', minLength: 2, maxLength: 2 }, nested: { type: 'object', properties: { deep: { type: 'array', items: { type: 'integer' } } }, additionalProperties: true } } },
  { title: 't', description: 'd', type: 'object', properties: { a: { default: 1, examples: [1], type: 'number' } } },
  {},
];

const SCALARS: unknown[] = [0, -0, 1, -3, -4, 6, 7, 1.5, 1.6, 2.5, 1e300, -1e-300, '', 'a', 'ab', 'abc', 'abcd', 'é', 'éé', '😀', '😀😀', 'x'.repeat(64), 'x'.repeat(65), 'fast', 'safe', 'slow', 'A', true, false, null];

/** Values near a schema's valid ones (each property replaced by every scalar, dropped, or added) and far from them. */
function valuesFor(schema: Record<string, unknown>, depth = 0): unknown[] {
  const out: unknown[] = [...SCALARS, [], {}, [1], ['a', 'b'], { id: 'x' }, [{ id: 'x' }], [{ id: '' }], [{}], { a: 1 }, { s: 'ab' }, { e: 'a' }, { c: 0 }, { e: 1, c: 0 }, { e: 1, c: 0, z: 1 }];
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (props !== undefined && depth < 2) {
    const base: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries(props)) base[k] = valuesFor(sub, depth + 1).find((v) => new Validator(sub as never, '2020-12', false).validate(v).valid);
    out.push(base);
    for (const k of Object.keys(props)) {
      const { [k]: _, ...without } = base;
      out.push(without);
      for (const v of [...SCALARS, [], {}, ['a'], Array.from({ length: 9 }, () => 'a'), { deep: [1, 2] }, { deep: [1.5] }, { deep: 'x' }]) out.push({ ...base, [k]: v });
    }
    out.push({ ...base, extra: 1 }, { ...base, extra: 'ab' }, JSON.parse(`{"__proto__": 1, ${JSON.stringify(base).slice(1)}`));
  }
  return out;
}

function agree(schema: Record<string, unknown>): number {
  const quick = quickCheck(schema);
  expect(quick, JSON.stringify(schema)).toBeDefined();
  const slow = new Validator(structuredClone(schema) as never, '2020-12', false);
  let accepted = 0;
  for (const value of valuesFor(schema)) {
    const expected = slow.validate(value).valid;
    expect({ schema, value, quick: quick!(value) }).toEqual({ schema, value, quick: expected });
    if (expected) accepted++;
  }
  return accepted;
}

describe('the quick check agrees with cfworker', () => {
  it.each(SCHEMAS.map((s, i) => [i, s] as const))('schema %i', (_, schema) => {
    expect(agree(schema)).toBeGreaterThan(0);
  });

  it("on every everything tool schema it supports (and supports the plain ones)", () => {
    let supported = 0;
    for (const tool of definition.tools) {
      for (const schema of [tool.definition.inputSchema, (tool.definition as { outputSchema?: Record<string, unknown> }).outputSchema]) {
        if (schema === undefined || quickCheck(schema) === undefined) continue;
        supported++;
        agree(schema as Record<string, unknown>);
      }
    }
    expect(supported).toBeGreaterThan(5);
  });

  it('leaves schemas with keywords it does not know to cfworker', () => {
    for (const schema of [
      { type: 'string', format: 'date-time' },
      { $ref: '#/$defs/a', $defs: { a: { type: 'string' } } },
      { anyOf: [{ type: 'string' }] },
      { type: 'object', patternProperties: { '^a': { type: 'string' } } },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'array', uniqueItems: true },
      { type: 'number', multipleOf: 0.1 },
      { enum: [{ a: 1 }] },
      { type: 'object', properties: { a: false } },
      { type: 'strin' },
      { minimum: '1' },
    ]) expect(quickCheck(schema), JSON.stringify(schema)).toBeUndefined();
  });
});

describe('the server validator with the quick check in front', () => {
  it('gives cfworker-shaped messages for invalid data and undefined for valid data', () => {
    const validate = createValidatorCompiler()(ECHO_INPUT);
    expect(validate({ name: 'n', count: 3, ratio: 0.5, mode: 'fast', tags: ['a'], flag: true })).toBeUndefined();
    const valid = { name: 'n', count: 3, ratio: 0.5, mode: 'fast', tags: ['a'], flag: true };
    expect(validate({ ...valid, name: '' })).toBe('arguments/name must NOT have fewer than 1 characters');
    expect(validate({ ...valid, count: 101, mode: 'slow' })).toBe('arguments/count must be <= 100, arguments/mode must be equal to one of the allowed values');
    expect(validate({ name: 'n' })).toMatch(/^arguments must have required property 'count'/);
  });
});
