// Issue 45 #3, #4, #5, #8 (headers): arguments and result properties removed wherever they sit (open
// inputs, array items, $defs), and x-mcp-header added to or moved between arguments.
import { describe, expect, it } from 'vitest';
import { compareYaml, expectVerdict, toolSpec, type VerdictCase } from './support.js';

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const str = { type: 'string' };
const list = (items: unknown, more: Record<string, unknown> = {}) => obj({ rows: { type: 'array', items } }, more);

// [case, old spec, new spec, rule ids (sorted), failing]
const CASES: VerdictCase[] = [
  ['an argument removed from an open input', toolSpec(obj({ a: str, b: str })), toolSpec(obj({ a: str })), ['INPUT_PROPERTY_REMOVED'], 1],
  ['an argument removed from a closed input: reported once', toolSpec(obj({ a: str, b: str }, { additionalProperties: false })), toolSpec(obj({ a: str }, { additionalProperties: false })), ['INPUT_PROPERTY_REMOVED'], 1],
  ['a nested argument removed from an open object', toolSpec(obj({ o: obj({ x: str, y: str }) })), toolSpec(obj({ o: obj({ x: str }) })), ['INPUT_PROPERTY_REMOVED'], 1],
  ['an argument removed under array items', toolSpec(list(obj({ x: str, y: str }))), toolSpec(list(obj({ x: str }))), ['INPUT_PROPERTY_REMOVED'], 1],
  ['an argument added to an open input', toolSpec(obj({ a: str })), toolSpec(obj({ a: str, b: str })), [], 0],
  ['an output property removed under array items', toolSpec(obj({}), list(obj({ x: str, y: str }))), toolSpec(obj({}), list(obj({ x: str }))), ['OUTPUT_PROPERTY_REMOVED'], 1],
  ['an output property removed under items through $defs', toolSpec(obj({}), { ...list({ $ref: '#/$defs/Row' }), $defs: { Row: obj({ x: str, y: str }) } }), toolSpec(obj({}), { ...list({ $ref: '#/$defs/Row' }), $defs: { Row: obj({ x: str }) } }), ['OUTPUT_PROPERTY_REMOVED'], 1],
  ['an output property removed from an object behind $ref', toolSpec(obj({}), { ...obj({ r: { $ref: '#/$defs/R' } }), $defs: { R: obj({ x: str, y: str }) } }), toolSpec(obj({}), { ...obj({ r: { $ref: '#/$defs/R' } }), $defs: { R: obj({ x: str }) } }), ['OUTPUT_PROPERTY_REMOVED'], 1],
  ['items moved into $defs: no change', toolSpec(obj({}), list(obj({ x: str }))), toolSpec(obj({}), { ...list({ $ref: '#/$defs/Row' }), $defs: { Row: obj({ x: str }) } }), [], 0],
  ['x-mcp-header added to an argument', toolSpec(obj({ r: str })), toolSpec(obj({ r: { ...str, 'x-mcp-header': 'Region' } })), ['HEADER_ADDED'], 1],
  ['x-mcp-header moved to another argument', toolSpec(obj({ r: { ...str, 'x-mcp-header': 'Region' }, z: str })), toolSpec(obj({ r: str, z: { ...str, 'x-mcp-header': 'Region' } })), ['HEADER_MOVED'], 1],
];

describe('removed arguments and properties, headers', () => {
  it.each(CASES)('%s', (_name, before, after, rules, failing) => expectVerdict(before, after, rules, failing));

  it('says what a removed open argument does to callers, at its place in both versions', () => {
    const f = compareYaml(toolSpec(obj({ a: str, b: str })), toolSpec(obj({ a: str }))).findings[0]!;
    expect(f.message).toBe('tool "t": input b was removed: callers that still send it pass validation and the tool runs without it');
    expect(f.old?.path).toBe('tools[0].input.properties.b');
    expect(f.new?.path).toBe('tools[0].input');
  });

  it('names the array path of a removed output property', () => {
    const f = compareYaml(toolSpec(obj({}), list(obj({ x: str, y: str }))), toolSpec(obj({}), list(obj({ x: str })))).findings[0]!;
    expect(f.message).toBe('tool "t": output property rows.items.y was removed');
  });
});
