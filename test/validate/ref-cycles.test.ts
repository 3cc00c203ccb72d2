// `$ref` cycles (MCPG040) when the spec `$defs` have none of their own (rules/ref-cycles.ts,
// defsAcyclicAlone): a tool's copied defs are then not walked again per tool, and what is reported must be
// what walking them reported: each tool's own cycle, at its place, and nothing for the defs it uses.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const HEAD = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';

function found(text: string) {
  return checkText(text).diagnostics.filter((d) => d.code === 'MCPG040').map((d) => `${d.line}:${d.column} ${d.path} ${d.message.replace(/ \(.*?\)/g, '')}`);
}

describe('$ref cycles beside acyclic spec $defs', () => {
  it("a tool's own cycle through `#` is reported at the tool; the defs it uses are quiet", () => {
    const text = `${HEAD}$defs:\n  Name: { type: string }\n  Pet: { type: object, properties: { name: { $ref: '#/$defs/Name' } } }\ntools:\n  - name: a\n    input: { type: object, properties: { p: { $ref: '#/$defs/Pet' } }, allOf: [{ $ref: '#' }] }\n`;
    expect(found(text)).toEqual(['8:88 tools[0].input.allOf[0].$ref $ref cycle "#" → back to "#" never reaches a property or an item: validating would recurse forever; recurse through "properties" or "items"']);
  });

  it('a cycle that runs through a def only inside a tool (the def says `#`) is still found', () => {
    const text = `${HEAD}$defs:\n  D: { allOf: [{ $ref: '#' }] }\ntools:\n  - name: a\n    input: { type: object, allOf: [{ $ref: '#/$defs/D' }] }\n`;
    expect(found(text)).toHaveLength(1);
  });

  it('a cycle among the spec $defs is reported once, at the defs, for every tool that reaches it', () => {
    const text = `${HEAD}$defs:\n  A: { allOf: [{ $ref: '#/$defs/B' }] }\n  B: { anyOf: [{ $ref: '#/$defs/A' }, { type: string }] }\ntools:\n  - name: a\n    input: { type: object, properties: { x: { $ref: '#/$defs/A' } } }\n  - name: b\n    input: { type: object, properties: { y: { $ref: '#/$defs/B' } } }\n`;
    expect(found(text)).toEqual(['4:24 $defs.A.allOf[0].$ref $ref cycle "#/$defs/B" → "#/$defs/A" → back to "#/$defs/B" never reaches a property or an item: validating would recurse forever; recurse through "properties" or "items"']);
  });

  it("a tool with $defs of its own that shadow a spec def's name inside the copies", () => {
    const text = `${HEAD}$defs:\n  P: { allOf: [{ $ref: '#/$defs/Q' }] }\n  Q: { type: string }\ntools:\n  - name: a\n    input: { type: object, properties: { x: { $ref: '#/$defs/P' } }, $defs: { Q: { allOf: [{ $ref: '#/$defs/P' }] } } }\n`;
    expect(found(text)).toHaveLength(1);
  });
});
