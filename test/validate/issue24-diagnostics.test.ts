// Issue 24 item 11: diagnostics at the right place, or present where they were missing.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const spec = (def: string) => `mcpgen: 1\nserver: { name: d, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        x: { default: ${def} }\n`;
const nested = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

describe('default nesting limit', () => {
  it('accepts a default of exactly 12 nested lists (the tools: list is not counted)', () => {
    expect(checkText(spec(nested(12))).diagnostics).toEqual([]);
  });
  it('refuses 13', () => {
    expect(checkText(spec(nested(13))).diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('lists nested deeper than 12 levels')]);
  });
});

describe('required and patternProperties', () => {
  const schema = (required: string) => `mcpgen: 1\nserver: { name: d, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        a: { type: string }\n      patternProperties:\n        "^x-": { type: string }\n      required: [${required}]\n`;
  it('accepts a required name matched only by patternProperties (valid 2020-12)', () => {
    expect(checkText(schema('a, x-trace')).diagnostics).toEqual([]);
  });
  it('still refuses a name nothing declares', () => {
    expect(checkText(schema('a, y')).diagnostics.map((d) => d.code)).toEqual(['MCPG021']);
  });
});
