// Issue 45 #10: strict-mode nulls are mapped back inside anyOf/oneOf/allOf branches, array items and $refs.
// A strict model sends every property of the branch it fills, null for the ones the call leaves out; the
// handler must get exactly the non-strict call's arguments. The "model" here fills those nulls into a
// non-strict call and ajv checks the result against the strict schema, so the simulated output is one a
// strict model may really send.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { fromStrictArguments, toStrictSchema } from '@mcpgen/runtime-client';

type Schema = Record<string, unknown>;
const ajv = new Ajv2020({ strict: false });
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The strict-mode output for a non-strict call: every listed property present, null where the call left it out. */
function asStrictModel(s: Schema, value: unknown, root: Schema): unknown {
  if (typeof s.$ref === 'string') return asStrictModel(ajv.getSchema(`strict#${s.$ref.slice(1)}`)!.schema as Schema, value, root);
  if (Array.isArray(value)) return isObject(s.items) ? value.map((v) => asStrictModel(s.items as Schema, v, root)) : value;
  if (!isObject(value)) return value;
  if (Array.isArray(s.anyOf)) {
    for (const b of s.anyOf as Schema[]) {
      const filled = asStrictModel(b, value, root);
      if (ajv.validate({ ...b, $defs: root.$defs }, filled)) return filled;
    }
    return value;
  }
  if (!isObject(s.properties)) return value;
  const props = s.properties;
  return Object.fromEntries(Object.keys(props).map((k) => [k, Object.hasOwn(value, k) ? asStrictModel(props[k] as Schema, value[k], root) : null]));
}

const bool = { type: 'boolean' };
const int = { type: 'integer' };
const str = { type: 'string' };
const union = {
  type: 'object',
  properties: {
    action: {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'delete' }, force: bool }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: 'resize' }, size: int, force: bool }, required: ['kind', 'size'] },
      ],
    },
  },
  required: ['action'],
};
const arrays = { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { x: int, note: str }, required: ['x'] } } }, required: ['rows'] };
const refs = { type: 'object', properties: { target: { $ref: '#/$defs/Target' }, list: { type: 'array', items: { $ref: '#/$defs/Target' } } }, $defs: { Target: { type: 'object', properties: { id: str, label: str, inner: { $ref: '#/$defs/Inner' } }, required: ['id'] }, Inner: { type: 'object', properties: { deep: bool } } } };
const anyOfNested = { type: 'object', properties: { filter: { anyOf: [{ type: 'object', properties: { tag: str, exact: bool }, required: ['tag'] }, { type: 'object', properties: { range: { type: 'object', properties: { from: int, to: int } } }, required: ['range'] }] } } };

// [case, input schema, non-strict calls]
const CASES: [string, Schema, unknown[]][] = [
  ['a discriminated oneOf whose branch has an optional field', union, [{ action: { kind: 'delete' } }, { action: { kind: 'delete', force: true } }, { action: { kind: 'resize', size: 3 } }, { action: { kind: 'resize', size: 3, force: false } }]],
  ['array items with an optional field', arrays, [{ rows: [] }, { rows: [{ x: 1 }, { x: 2, note: 'n' }] }]],
  ['$refs, an array of $refs, a $ref inside a $ref', refs, [{}, { target: { id: 'a' } }, { target: { id: 'a', inner: {} } }, { list: [{ id: 'b', label: 'l' }, { id: 'c', inner: { deep: true } }] }]],
  ['anyOf branches with nested optional objects', anyOfNested, [{}, { filter: { tag: 't' } }, { filter: { range: {} } }, { filter: { range: { from: 1 } } }]],
];

describe('strict arguments round trip', () => {
  it.each(CASES)('%s', (_name, input, calls) => {
    const strict = toStrictSchema(input);
    expect(strict.strict).toBe(true);
    ajv.removeSchema('strict');
    ajv.addSchema(strict.schema, 'strict');
    for (const call of calls) {
      expect(ajv.validate(input, call), `non-strict call ${JSON.stringify(call)}`).toBe(true);
      const sent = asStrictModel(strict.schema as Schema, call, strict.schema as Schema);
      expect(ajv.validate(strict.schema, sent), `${JSON.stringify(sent)}: ${ajv.errorsText()}`).toBe(true);
      expect(fromStrictArguments(input, sent)).toEqual(call);
    }
  });

  it('allOf parts: a null for an optional property of a part is "not given"', () => {
    const input = { type: 'object', properties: { t: { allOf: [{ $ref: '#/$defs/T' }, { properties: { extra: int } }] } }, $defs: { T: { type: 'object', properties: { a: int, b: str }, required: ['a'] } } };
    expect(fromStrictArguments(input, { t: { a: 1, b: null, extra: null } })).toEqual({ t: { a: 1 } });
  });

  it('a null a property accepts stays null, inside branches too', () => {
    const input = { type: 'object', properties: { u: { anyOf: [{ type: 'object', properties: { k: { const: 'x' }, v: { type: ['string', 'null'] } }, required: ['k', 'v'] }] } } };
    expect(fromStrictArguments(input, { u: { k: 'x', v: null } })).toEqual({ u: { k: 'x', v: null } });
  });
});
