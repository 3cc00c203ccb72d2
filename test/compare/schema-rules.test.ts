// Given/want per schema rule, in both directions: the change reports the rule (breaking), its reverse
// reports no breaking change (a widened input / narrowed output is safe). Through the whole pipeline.
import { describe, expect, it } from 'vitest';
import { compareYaml, toolSpec } from './support.js';

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const p = (schema: unknown, more: Record<string, unknown> = {}) => obj({ a: schema }, more);

/** [rule, old input, new input]: old → new is breaking for callers, new → old is not. */
const INPUT_CASES: [string, unknown, unknown][] = [
  ['INPUT_TYPE_NARROWED', p({ type: ['string', 'integer'] }), p({ type: 'string' })],
  ['INPUT_TYPE_NARROWED', p({ type: 'number' }), p({ type: 'integer' })],
  ['INPUT_ENUM_NARROWED', p({ enum: ['x', 'y', 'z'] }), p({ enum: ['x', 'y'] })],
  ['INPUT_ENUM_NARROWED', p({ type: 'string' }), p({ type: 'string', enum: ['x'] })],
  ['INPUT_REQUIRED_ADDED', p({ type: 'string' }), p({ type: 'string' }, { required: ['a'] })],
  ['INPUT_PROPERTY_REMOVED', obj({ a: { type: 'string' }, b: { type: 'string' } }, { additionalProperties: false }), obj({ a: { type: 'string' } }, { additionalProperties: false })],
  ['INPUT_ADDITIONAL_PROPERTIES_CLOSED', p({ type: 'string' }), p({ type: 'string' }, { additionalProperties: false })],
  ['INPUT_MINIMUM_RAISED', p({ type: 'number', minimum: 0 }), p({ type: 'number', minimum: 1 })],
  ['INPUT_MINIMUM_RAISED', p({ type: 'number', minimum: 0 }), p({ type: 'number', exclusiveMinimum: 0 })],
  ['INPUT_MAXIMUM_LOWERED', p({ type: 'number', maximum: 10 }), p({ type: 'number', maximum: 9.5 })],
  ['INPUT_MULTIPLE_OF_CHANGED', p({ type: 'integer', multipleOf: 2 }), p({ type: 'integer', multipleOf: 4 })],
  ['INPUT_MIN_LENGTH_RAISED', p({ type: 'string' }), p({ type: 'string', minLength: 1 })],
  ['INPUT_MAX_LENGTH_LOWERED', p({ type: 'string', maxLength: 10 }), p({ type: 'string', maxLength: 5 })],
  ['INPUT_PATTERN_CHANGED', p({ type: 'string' }), p({ type: 'string', pattern: '^a' })],
  ['INPUT_FORMAT_CHANGED', p({ type: 'string' }), p({ type: 'string', format: 'email' })],
  ['INPUT_MIN_ITEMS_RAISED', p({ type: 'array', items: { type: 'string' } }), p({ type: 'array', items: { type: 'string' }, minItems: 1 })],
  ['INPUT_MAX_ITEMS_LOWERED', p({ type: 'array', items: { type: 'string' }, maxItems: 3 }), p({ type: 'array', items: { type: 'string' }, maxItems: 2 })],
  ['INPUT_UNIQUE_ITEMS_ADDED', p({ type: 'array', items: { type: 'string' } }), p({ type: 'array', items: { type: 'string' }, uniqueItems: true })],
  ['INPUT_TYPE_NARROWED', p({ type: 'array', items: { type: ['string', 'null'] } }), p({ type: 'array', items: { type: 'string' } })],
  ['INPUT_PROPERTY_COUNT_TIGHTENED', p({ type: 'string' }, { maxProperties: 3 }), p({ type: 'string' }, { maxProperties: 2 })],
  ['INPUT_SCHEMA_NARROWED', p({ type: 'string' }), p({ type: 'string', not: { const: 'x' } })],
];

/** [rule, old output, new output]: old → new is breaking for typed clients, new → old is not. */
const OUTPUT_CASES: [string, unknown, unknown][] = [
  ['OUTPUT_TYPE_WIDENED', p({ type: 'string' }), p({ type: ['string', 'null'] })],
  ['OUTPUT_ENUM_WIDENED', p({ enum: ['x', 'y'] }), p({ enum: ['x', 'y', 'z'] })],
  ['OUTPUT_PROPERTY_NO_LONGER_REQUIRED', p({ type: 'string' }, { required: ['a'] }), p({ type: 'string' })],
  ['OUTPUT_PROPERTY_UNDECLARED', p({ type: 'string' }, { additionalProperties: false }), obj({ a: { type: 'string' }, b: { type: 'string' } }, { additionalProperties: false })],
  ['OUTPUT_ADDITIONAL_PROPERTIES_OPENED', p({ type: 'string' }, { additionalProperties: false }), p({ type: 'string' })],
  ['OUTPUT_MINIMUM_LOWERED', p({ type: 'integer', minimum: 1 }), p({ type: 'integer', minimum: 0 })],
  ['OUTPUT_MAXIMUM_RAISED', p({ type: 'integer', maximum: 1 }), p({ type: 'integer', maximum: 2 })],
  ['OUTPUT_MULTIPLE_OF_CHANGED', p({ type: 'integer', multipleOf: 4 }), p({ type: 'integer', multipleOf: 2 })],
  ['OUTPUT_MIN_LENGTH_LOWERED', p({ type: 'string', minLength: 2 }), p({ type: 'string', minLength: 1 })],
  ['OUTPUT_MAX_LENGTH_RAISED', p({ type: 'string', maxLength: 2 }), p({ type: 'string', maxLength: 3 })],
  ['OUTPUT_PATTERN_CHANGED', p({ type: 'string', pattern: '^a' }), p({ type: 'string' })],
  ['OUTPUT_FORMAT_CHANGED', p({ type: 'string', format: 'email' }), p({ type: 'string' })],
  ['OUTPUT_MIN_ITEMS_LOWERED', p({ type: 'array', minItems: 1 }), p({ type: 'array' })],
  ['OUTPUT_MAX_ITEMS_RAISED', p({ type: 'array', maxItems: 1 }), p({ type: 'array', maxItems: 2 })],
  ['OUTPUT_UNIQUE_ITEMS_DROPPED', p({ type: 'array', uniqueItems: true }), p({ type: 'array' })],
  ['OUTPUT_PROPERTY_COUNT_LOOSENED', p({ type: 'string' }, { maxProperties: 1 }), p({ type: 'string' }, { maxProperties: 2 })],
  ['OUTPUT_SCHEMA_WIDENED', p({ type: 'string', not: { const: 'x' } }), p({ type: 'string' })],
];

const ids = (r: ReturnType<typeof compareYaml>) => r.findings.map((f) => f.rule.id);
const breakingIds = (r: ReturnType<typeof compareYaml>) => r.failing.map((f) => f.rule.id);

describe('input schema rules', () => {
  it.each(INPUT_CASES)('%s: %j → %j', (rule, before, after) => {
    const forward = compareYaml(toolSpec(before), toolSpec(after));
    expect(breakingIds(forward)).toContain(rule);
    const f = forward.findings.find((x) => x.rule.id === rule)!;
    expect(f.new?.file).toMatch(/spec\.yaml$/);
    expect(f.new?.path).toMatch(/^tools\[0\]\.input/);
    const reverse = compareYaml(toolSpec(after), toolSpec(before));
    expect(breakingIds(reverse)).toEqual([]);
    expect(ids(reverse)).toContain('INPUT_WIDENED');
  });
});

describe('output schema rules', () => {
  const input = { type: 'object' };
  it.each(OUTPUT_CASES)('%s: %j → %j', (rule, before, after) => {
    const forward = compareYaml(toolSpec(input, before), toolSpec(input, after));
    expect(breakingIds(forward)).toContain(rule);
    const reverse = compareYaml(toolSpec(input, after), toolSpec(input, before));
    expect(breakingIds(reverse).filter((id) => id !== 'OUTPUT_PROPERTY_REMOVED')).toEqual([]);
    expect(ids(reverse)).toContain('OUTPUT_NARROWED');
  });
});

describe('semantic comparison: no change', () => {
  const same: [string, string, string][] = [
    ['keys reordered', toolSpec({ type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] }), toolSpec({ required: ['a'], properties: { a: { minLength: 1, type: 'string' } }, type: 'object' })],
    [
      'schema moved into $defs',
      toolSpec({ type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] } } }),
      `$defs:\n  A: { type: string, enum: [x, y] }\n${toolSpec({ type: 'object', properties: { a: { $ref: '#/$defs/A' } } })}`,
    ],
    [
      'equivalent $ref rewritten (a chain through another $defs entry)',
      `$defs:\n  A: { type: integer, minimum: 1 }\n${toolSpec({ type: 'object', properties: { a: { $ref: '#/$defs/A' } } })}`,
      `$defs:\n  A: { $ref: '#/$defs/B' }\n  B: { type: integer, minimum: 1 }\n${toolSpec({ type: 'object', properties: { a: { $ref: '#/$defs/A' } } })}`,
    ],
    ['description and examples of a property (annotations)', toolSpec(p({ type: 'string', description: 'x' })), toolSpec(p({ type: 'string', description: 'y', examples: ['q'] }))],
    ['integer enum written as a range', toolSpec(p({ type: 'integer', enum: [0, 1, 2] })), toolSpec(p({ type: 'integer', minimum: 0, maximum: 2 }))],
    ['exclusiveMinimum on integers', toolSpec(p({ type: 'integer', exclusiveMinimum: 0 })), toolSpec(p({ type: 'integer', minimum: 1 }))],
  ];
  it.each(same)('%s', (_name, a, b) => {
    expect(compareYaml(a, b).findings).toEqual([]);
    expect(compareYaml(b, a).findings).toEqual([]);
  });
});

describe('wording follows the direction of the change', () => {
  // The subset engine words a reason from its first schema to its second; for an output's breaking change
  // and an input's widening the first is the new schema, so the message must not read backwards.
  it('an output that may now hold null says so (not "type null is no longer accepted")', () => {
    const r = compareYaml(toolSpec({ type: 'object' }, p({ type: 'string' })), toolSpec({ type: 'object' }, p({ type: ['string', 'null'] })));
    const f = r.findings.find((x) => x.rule.id === 'OUTPUT_TYPE_WIDENED')!;
    expect(f.message).toContain('a type the old schema refused is now allowed');
    expect(f.message).not.toContain('no longer accepted');
  });
  it('an input whose upper bound was raised says raised (not "lowered")', () => {
    const r = compareYaml(toolSpec(p({ type: 'number', maximum: 5 })), toolSpec(p({ type: 'number', maximum: 10 })));
    const f = r.findings.find((x) => x.rule.id === 'INPUT_WIDENED')!;
    expect(f.message).toContain('upper bound raised or removed');
    expect(f.message).not.toContain('lowered');
  });
  it('an input whose upper bound was lowered keeps the engine wording', () => {
    const r = compareYaml(toolSpec(p({ type: 'number', maximum: 10 })), toolSpec(p({ type: 'number', maximum: 5 })));
    expect(r.findings.find((x) => x.rule.id === 'INPUT_MAXIMUM_LOWERED')!.message).toContain('upper bound lowered to 5');
  });
});
