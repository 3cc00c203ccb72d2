// Issue 45 #11: OpenAI strict mode's published size limits. Over one, OpenAI refuses the whole request
// (every tool in it), so `check --target openai-strict` reports it and the bridge sends that tool with
// `strict: false`. Each limit below is quoted from its source: OpenAI's Structured Outputs guide, section
// "Supported schemas" (platform.openai.com/docs/guides/structured-outputs#supported-schemas).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toOpenAiTools, toStrictSchema } from '@mcpgen/runtime-client';
import { OPENAI_STRICT_LIMITS } from '@mcpgen/runtime/shared/provider-rules';
import { check } from '../../src/pipeline.js';
import { tempDir } from '../support/root.js';

type Schema = Record<string, unknown>;
const str = { type: 'string' };
// Every property required, the object closed: the schema is strict as it is, only its size is at stake.
const props = (n: number, each: (i: number) => unknown = () => str): Schema => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, each(i)])), required: Array.from({ length: n }, (_, i) => `p${i}`), additionalProperties: false });
const nested = (levels: number): Schema => (levels === 1 ? { type: 'object', properties: { leaf: str } } : { type: 'object', properties: { next: nested(levels - 1) } });
const enumOf = (n: number, width: number) => ({ type: 'string', enum: Array.from({ length: n }, (_, i) => String(i).padStart(width, 'v')) });

// [limit, the published sentence, a schema at the limit, one just over it]
const LIMITS: [string, string, Schema, Schema][] = [
  ['properties', 'A schema may have up to 5000 object properties total, with up to 10 levels of nesting.', props(5000), props(5001)],
  ['nesting', 'A schema may have up to 5000 object properties total, with up to 10 levels of nesting.', nested(10), nested(11)],
  ['total string length', 'In a schema, total string length of all property names, definition names, enum values, and const values cannot exceed 120,000 characters.', props(100, () => ({ const: 'c'.repeat(1190) })), props(100, () => ({ const: 'c'.repeat(1200) }))],
  ['enum values', 'A schema may have up to 1000 enum values across all enum properties.', props(2, () => enumOf(500, 3)), props(2, () => enumOf(501, 3))],
  ['large string enum', 'For a single enum property with string values, the total string length of all enum values cannot exceed 15,000 characters when there are more than 250 enum values.', props(1, () => enumOf(251, 59)), props(1, () => enumOf(251, 60))],
];

function checkStrict(input: Schema) {
  const dir = tempDir();
  writeFileSync(join(dir, 'spec.yaml'), `mcpgen: 1\nserver: { name: s, version: 1.0.0 }\ntools:\n  - name: big\n    input: ${JSON.stringify(input)}\n`);
  return check([join(dir, 'spec.yaml')], dir, undefined, undefined, ['openai-strict']).diagnostics.filter((d) => d.code === 'MCPG167' && d.message.includes('OpenAI refuses the whole request'));
}

describe('OpenAI strict mode size limits', () => {
  it('the limits are the published numbers', () => {
    expect(OPENAI_STRICT_LIMITS).toEqual({ properties: 5000, nesting: 10, stringLength: 120_000, enumValues: 1000, largeEnumValues: 250, largeEnumLength: 15_000 });
  });

  it.each(LIMITS)('%s: "%s"', (limit, _source, at, over) => {
    expect(checkStrict(at), `${limit} at the limit`).toEqual([]);
    expect(toStrictSchema(at).strict).toBe(true);
    const found = checkStrict(over);
    expect(found, `${limit} over the limit`).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: expect.any(String), message: expect.stringContaining('the bridge sends this tool with `strict: false`'), line: 5 });
    // The bridge: that tool alone goes out non-strict, with its schema as it is; the others stay strict.
    const tools = toOpenAiTools([{ name: 'big', inputSchema: over as never }, { name: 'small', inputSchema: { type: 'object', properties: { q: str } } }], { strict: true });
    expect(tools.map((t) => t.function.strict)).toEqual([false, true]);
    expect(toStrictSchema(over).notes.some((n) => n.kind === 'cannot' && n.message.includes('OpenAI refuses'))).toBe(true);
  });
});
