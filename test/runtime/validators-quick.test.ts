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
  // What the OpenAPI import writes: the root's $defs by reference (a $ref beside `type`), formats cfworker knows and does not.
  {
    type: 'object',
    $ref: '#/$defs/Pet',
    $defs: {
      Pet: { type: 'object', required: ['s'], properties: { s: { type: 'string', format: 'date-time' }, id: { type: 'integer', format: 'int64' }, e: { $ref: '#/$defs/Mode' }, nested: { $ref: '#/definitions/Deep' } } },
      Mode: { enum: ['a', 1, null, true] },
      Unused: { type: 'string', format: 'email' },
      Int: { type: 'integer' },
    },
    definitions: { Deep: { type: 'object', properties: { deep: { type: 'array', items: { $ref: '#/$defs/Int' } } } } },
  },
  { $defs: { Int: { type: 'integer' } }, type: 'object', properties: { deep: { type: 'array', items: { $ref: '#/$defs/Int' } } } },
  { type: 'object', properties: { s: { format: 'email' }, e: { type: 'string', format: 'uuid' }, c: { format: 'int32', type: 'integer' } } },
  // Recursive: a tree.
  { $ref: '#/$defs/Node', $defs: { Node: { type: 'object', properties: { s: { type: 'string' }, nested: { $ref: '#/$defs/Node' } }, additionalProperties: false } } },
];

const SCALARS: unknown[] = [0, -0, 1, -3, -4, 6, 7, 1.5, 1.6, 2.5, 1e300, -1e-300, '', 'a', 'ab', 'abc', 'abcd', 'é', 'éé', '😀', '😀😀', 'x'.repeat(64), 'x'.repeat(65), 'fast', 'safe', 'slow', 'A', '2024-01-01T00:00:00Z', 'a@b.example', '123e4567-e89b-12d3-a456-426614174000', true, false, null];

/** Values near a schema's valid ones (each property replaced by every scalar, dropped, or added) and far from them. */
function valuesFor(schema: Record<string, unknown>, depth = 0, root = schema): unknown[] {
  const out: unknown[] = [...SCALARS, [], {}, [1], ['a', 'b'], { id: 'x' }, [{ id: 'x' }], [{ id: '' }], [{}], { a: 1 }, { s: 'ab' }, { e: 'a' }, { c: 0 }, { e: 1, c: 0 }, { e: 1, c: 0, z: 1 }];
  // A root that is a reference to one of its $defs: the properties of the definition.
  const target = typeof schema.$ref === 'string' ? (schema.$defs as Record<string, Record<string, unknown>> | undefined)?.[schema.$ref.split('/').pop()!] : undefined;
  const props = (schema.properties ?? target?.properties) as Record<string, Record<string, unknown>> | undefined;
  if (props !== undefined && depth < 2) {
    const base: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries(props)) {
      // A property's subschema judged with the root's definitions, which its references name.
      const inRoot = { ...sub, ...(root.$defs !== undefined ? { $defs: root.$defs } : {}), ...(root.definitions !== undefined ? { definitions: root.definitions } : {}) };
      base[k] = valuesFor(sub, depth + 1, root).find((v) => new Validator(inRoot as never, '2020-12', false).validate(v).valid);
    }
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
      { $ref: '#/$defs/a' },
      { $ref: '#/$defs/a', $defs: { b: { type: 'string' } } },
      { $ref: '#/$defs/a%20b', $defs: { 'a b': { type: 'string' } } },
      { $ref: '#/properties/a', properties: { a: { type: 'string' } } },
      { $ref: 'https://example.com/a.json' },
      { $ref: '#/$defs/a', $defs: { a: { type: 'string' }, b: { $id: 'https://example.com/b', type: 'string' } } },
      { type: 'object', properties: { a: { $defs: { b: { type: 'string' } } } } },
      { $id: 'https://example.com/root', $ref: '#/$defs/a', $defs: { a: { type: 'string' } } },
      { $defs: { a: { id: '#/$defs/b', type: 'string' } } },
      { type: 'string', format: 'constructor' },
      { type: 'string', format: 1 },
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

describe('the quick check on references and formats', () => {
  it('answers the OpenAPI import\'s output schemas ($ref, $defs, format) by itself and refuses what cfworker refuses', () => {
    const schema = SCHEMAS.find((s) => s.$ref === '#/$defs/Pet')!;
    const quick = quickCheck(schema)!;
    expect(quick({ s: '2024-01-01T00:00:00Z', id: 1, e: 'a', nested: { deep: [1, 2] } })).toBe(true);
    expect(quick({ s: 'yesterday', id: 1 })).toBe(false);
    expect(quick({ s: '2024-01-01T00:00:00Z', nested: { deep: [1.5] } })).toBe(false);
    expect(quick({ s: '2024-01-01T00:00:00Z', e: 'b' })).toBe(false);
  });

  it('follows a recursive reference as deep as the data, and leaves data deeper than its stack to cfworker', () => {
    const schema = SCHEMAS.find((s) => s.$ref === '#/$defs/Node')!;
    const quick = quickCheck(schema)!;
    const deep = (n: number, leaf: unknown): unknown => (n === 0 ? leaf : { nested: deep(n - 1, leaf) });
    expect(quick(deep(50, { s: 'x' }))).toBe(true);
    expect(quick(deep(50, { s: 1 }))).toBe(false);
    expect(quick(deep(50, { t: 'x' }))).toBe(false);
    let tooDeep: unknown = {};
    for (let i = 0; i < 200_000; i++) tooDeep = { nested: tooDeep };
    expect(createValidatorCompiler()(schema, 'structuredContent')(tooDeep)).toBe('structuredContent are nested too deeply to validate');
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
