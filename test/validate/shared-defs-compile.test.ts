// Issue 28: a spec def reached from many tools is compiled where it is written, not again inside each
// tool (GitHub's description spent most of `import openapi` and `generate` recompiling shared defs).
import { describe, expect, it } from 'vitest';
import { withCopiedDefsStubbed } from '../../src/validate/rules/compile-stubs.js';
import { checkText } from '../helpers.js';

const spec = (tools: string, defs: string) => `mcpgen: 1
server: { name: shared, version: 1.0.0 }
tools:
${tools}
$defs:
${defs}
`;
const tool = (name: string, prop: string) => `  - name: ${name}
    description: d
    input:
      type: object
      properties:
        a: ${prop}
`;

describe('shared spec defs in the strict compile', () => {
  it("a def's strict-mode problem is reported once, at the def, however many tools reach it; a tool's own problem still at the tool", () => {
    const r = checkText(spec(tool('t1', "{ $ref: '#/$defs/Bad' }") + tool('t2', "{ $ref: '#/$defs/Bad' }") + tool('t3', '{ type: string, minimum: 1 }'), '  Bad: { type: string, minimum: 1 }'));
    const found = r.diagnostics.map((d) => [d.code, d.line, d.message.split(' does not compile')[0]]);
    expect(found).toEqual([
      ['MCPG019', 21, 'input schema of tool "t3"'],
      ['MCPG019', 24, '$defs "Bad"'],
    ]);
  });

  it('a $ref into a part of a def still resolves (the full bundle is compiled then)', () => {
    const r = checkText(spec(tool('t1', "{ $ref: '#/$defs/Box/properties/x' }"), '  Box: { type: object, properties: { x: { type: string } } }'));
    expect(r.diagnostics).toEqual([]);
  });

  it('copied defs become true; own defs, deep and outside refs keep the bundle as it is', () => {
    const big = { type: 'object', properties: { x: { type: 'string' } } };
    const bundled = { type: 'object', properties: { a: { $ref: '#/$defs/Big' }, b: { $ref: '#/$defs/Mine' } }, $defs: { Mine: { type: 'string' }, Big: big } };
    expect(withCopiedDefsStubbed(bundled, { Mine: { type: 'string' } })).toEqual({ ...bundled, $defs: { Mine: { type: 'string' }, Big: true } });
    const deep = { ...bundled, properties: { a: { $ref: '#/$defs/Big/properties/x' } } };
    expect(withCopiedDefsStubbed(deep, { Mine: { type: 'string' } })).toBe(deep);
    const outside = { ...bundled, properties: { a: { $ref: 'https://example.com/s.json' } } };
    expect(withCopiedDefsStubbed(outside, { Mine: { type: 'string' } })).toBe(outside);
  });
});
