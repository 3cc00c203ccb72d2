// Issue 28: strict tsc of a package with ~1,000 tools (GitHub's REST description) failed with TS2590
// ("Expression produces a union type that is too complex to represent") in definition.ts: one array
// literal of every tool made the checker reduce a union of as many differently shaped object types.
// From LARGE_TOOL_LIST tools on, each tool is a const of the declared element type and the list names them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGE_TOOL_LIST } from '../../src/emit/definition-file.js';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT } from '../support/root.js';

// tsc gives up on a union when reducing it would take over 1,000,000 subtype checks (about n² for n
// differently shaped members): 600 tools compile either way, 1,100 failed before the change.
const COUNT = 1100;
const TYPES = ['string', 'integer', 'number', 'boolean'] as const;

/** A tool whose input and output shapes differ from every other tool's (property names, types, enums). */
function tool(i: number) {
  const props = Object.fromEntries(Array.from({ length: 1 + (i % 4) }, (_, k) => [`p${i}_${k}`, { type: TYPES[(i + k) % 4], description: `argument ${k} of tool ${i}` }]));
  return {
    name: `tool_${i}`,
    description: `Tool ${i}`,
    input: { type: 'object', properties: { ...props, [`mode${i}`]: { type: 'string', enum: [`a${i}`, `b${i}`] } }, required: [`mode${i}`] },
    output: { type: 'object', properties: { [`r${i}`]: { type: 'array', items: { type: 'object', properties: { [`id${i}`]: { type: TYPES[i % 4] } } } } } },
    ...(i % 3 === 0 ? { annotations: { readOnlyHint: true } } : {}),
  };
}

describe('a large tool list', () => {
  it(`${COUNT} differently shaped tools pass strict tsc (no TS2590 in definition.ts)`, async () => {
    // JSON is YAML, and a second of CPU quicker to write than yaml's stringify of 1,100 tools.
    const spec = JSON.stringify({ mcpgen: 1, server: { name: 'many', version: '1.0.0' }, tools: Array.from({ length: COUNT }, (_, i) => tool(i)) }, null, 1);
    const built = await generateAndCompile(join(ROOT, '.tmp/large-tool-list'), 'many', spec, {});
    expect(built.diagnostics.filter((d) => (d as { severity: string }).severity === 'error')).toEqual([]);
    expect(built.compileErrors).toEqual([]);
    const definition = readFileSync(join(ROOT, '.tmp/large-tool-list/out/many/definition.ts'), 'utf8');
    expect(COUNT).toBeGreaterThanOrEqual(LARGE_TOOL_LIST);
    expect(definition).toContain(`const tool${COUNT - 1}: Tool = {`);
  }, 600_000);
});
