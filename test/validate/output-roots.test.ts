// MCPG042 and the output roots the model states `type: object` for (issue 24 item 2): given/want.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const spec = (output: string) => `mcpgen: 1
server: { name: s, version: 1.0.0 }
$defs:
  Ticket: { type: object, properties: { id: { type: string } } }
  Name: { type: string }
  Alias: { $ref: '#/$defs/Ticket' }
tools:
  - name: t
    output: ${output}
`;

describe('output roots', () => {
  it.each([
    ["{ $ref: '#/$defs/Ticket' }"],
    ["{ $ref: '#/$defs/Alias' }"],
    ["{ allOf: [{ $ref: '#/$defs/Ticket' }, { description: a ticket }] }"],
    ["{ anyOf: [{ $ref: '#/$defs/Ticket' }, { type: object, properties: { n: { type: integer } } }] }"],
    ['{ type: [object], properties: { a: { type: string } } }'],
  ])('%s is an object: accepted, sent with type: object', (output) => {
    const r = checkText(spec(output));
    expect(r.diagnostics).toEqual([]);
    const schema = r.models[0]!.tools[0]!.outputSchema!;
    expect(schema.type).toBe('object');
  });

  it.each([
    ["{ $ref: '#/$defs/Name' }", '"#/$defs/Name", which allows type "string"'],
    ['{ type: [object, "null"] }', 'type ["object","null"]'],
    ["{ anyOf: [{ $ref: '#/$defs/Ticket' }, { type: string }] }", 'an anyOf member that allows type "string"'],
    ["{ allOf: [{ description: anything }] }", 'no "type"'],
    ['{}', 'no "type"'],
  ])('%s is refused (MCPG042)', (output, why) => {
    const r = checkText(spec(output));
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['MCPG042', 9]]);
    expect(r.diagnostics[0]!.message).toContain(`but it allows ${why};`);
  });
});
