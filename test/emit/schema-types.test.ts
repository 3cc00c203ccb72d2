import { describe, expect, it } from 'vitest';
import { schemaToType } from '../../src/emit/schema-types.js';

const scope = { root: {}, specDef: (ref: string) => (ref === '#/$defs/Unit' ? 'Unit' : undefined) };

// given schema → want TypeScript type
const CASES: [string, unknown, string][] = [
  ['string', { type: 'string' }, 'string'],
  ['integer', { type: 'integer' }, 'number'],
  ['nullable', { type: ['string', 'null'] }, 'string | null'],
  ['enum', { enum: ['a', 'b"c'] }, '"a" | "b\\"c"'],
  ['const', { const: 42 }, '42'],
  ['array of union', { type: 'array', items: { type: ['string', 'number'] } }, '(string | number)[]'],
  ['tuple', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false }, '[string, number]'],
  ['spec $ref', { $ref: '#/$defs/Unit' }, 'Unit'],
  ['oneOf', { oneOf: [{ type: 'string' }, { type: 'boolean' }] }, 'string | boolean'],
  ['allOf', { allOf: [{ $ref: '#/$defs/Unit' }, { type: 'object', properties: { x: { type: 'string' } } }] }, 'Unit & {\n  x?: string;\n}'],
  ['object', JSON.parse('{"type":"object","properties":{"my-field":{"type":"string"},"__proto__":{"type":"integer"}},"required":["my-field"]}'), '{\n  "my-field": string;\n  __proto__?: number;\n}'],
  ['open object', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, '{\n  a?: string;\n  [key: string]: unknown;\n}'],
  ['closed empty object', { type: 'object', additionalProperties: false }, '{ [key: string]: never }'], // no global type name: a $defs entry may be called Record
  ['true', true, 'unknown'],
  ['false', false, 'never'],
  ['doc comments are escaped', { type: 'object', properties: { a: { type: 'string', description: 'ends */ here' } } }, '{\n  /** ends *\\/ here */\n  a?: string;\n}'],
];

describe('schemaToType', () => {
  for (const [name, schema, want] of CASES) {
    it(name, () => {
      expect(schemaToType(JSON.parse(JSON.stringify(schema)), scope)).toBe(want);
    });
  }
});
