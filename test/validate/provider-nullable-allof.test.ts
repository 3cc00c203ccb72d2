// Issue 45 #12: an optional property that already accepts null is not lossless under strict mode (the
// handler gets null where a non-strict call gives nothing) and the report says so; Gemini's bridge merges
// `allOf` parts instead of sending `{}`, and says when a part it cannot merge widens what the model may send.
import { describe, expect, it } from 'vitest';
import { fromStrictArguments, toGeminiSchema, toStrictSchema } from '@mcpgen/runtime-client';
import { schemaFindings } from '../../src/validate/rules/provider-targets.js';
import type { JsonObjectSchema } from '../../src/validate/spec-types.js';

const str = { type: 'string' };

describe('strict mode: an optional property that already accepts null', () => {
  const schema = { type: 'object', properties: { q: { type: ['string', 'null'] }, r: str }, additionalProperties: false } as JsonObjectSchema;

  it('is reported as not lossless, and the other optional one as mapped back', () => {
    const whys = Object.fromEntries(schemaFindings(schema, 'openai-strict').map((f) => [f.path.join('/'), f.why]));
    expect(whys['properties/q']).toContain('a null from the model reaches the handler as null');
    expect(whys['properties/q']).toContain('not lossless');
    expect(whys['properties/r']).toContain('a null is mapped back to "not given"');
    const notes = Object.fromEntries(toStrictSchema(schema).notes.map((n) => [n.path, n.message]));
    expect(notes['/properties/q']).toContain('a null reaches the handler as null');
  });

  it('the bridge does what the report says: the null reaches the handler', () => {
    expect(fromStrictArguments(schema, { q: null, r: null })).toEqual({ q: null });
  });
});

describe('Gemini: allOf', () => {
  const T = { type: 'object', properties: { a: str, b: { type: 'integer' } }, required: ['a'] };
  // [case, input schema, what the bridge sends for the property `t`]
  const CASES: [string, Record<string, unknown>, unknown][] = [
    ['allOf of one object', { type: 'object', properties: { t: { allOf: [T] } } }, { type: 'object', properties: { a: str, b: { type: 'integer' } }, required: ['a'] }],
    ['allOf of a $ref and an extra part', { type: 'object', properties: { t: { allOf: [{ $ref: '#/$defs/T' }, { properties: { c: { type: 'boolean' } }, required: ['c'] }], description: 'd' } }, $defs: { T } }, { description: 'd', type: 'object', properties: { c: { type: 'boolean' }, a: str, b: { type: 'integer' } }, required: ['a', 'c'] }],
  ];
  it.each(CASES)('%s: the parts are merged, not sent as {}', (_name, input, sent) => {
    const g = toGeminiSchema(input) as { properties: Record<string, unknown> };
    expect(g.properties.t).toEqual(sent);
  });

  it('check --target gemini: a mergeable allOf is changed, a conflicting one dropped with the widening said', () => {
    const ok = schemaFindings({ type: 'object', properties: { t: { allOf: [T] } } } as JsonObjectSchema, 'gemini');
    expect(ok.map((f) => `${f.effect} ${f.path.join('/')}`)).toEqual(['changed properties/t/allOf']);
    const clash = schemaFindings({ type: 'object', properties: { t: { type: 'object', properties: { a: str }, allOf: [{ properties: { a: { type: 'integer' } } }] } } } as JsonObjectSchema, 'gemini');
    expect(clash[0]).toMatchObject({ effect: 'dropped', why: expect.stringContaining('the model may send values the server refuses') });
    expect(clash[0]!.why).toContain('properties.a');
  });
});
