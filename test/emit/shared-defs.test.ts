// Issue 24 item 9: a spec `$defs` entry used by many tools is written once in definition.ts (tool schemas
// hold it by reference), while tools/list still sends every schema whole: the definition's data, and so
// every byte on the wire, is what it was when each tool carried its own copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { definitionData } from '../../src/emit/definition-file.js';
import { generate } from '../../src/pipeline.js';
import { tempDir } from '../support/root.js';

const TOOLS = 6;
const tool = (i: number) => `
  - name: tool_${i}
    input: { type: object, properties: { ticket: { $ref: '#/$defs/Ticket' }, note: { $ref: '#/$defs/Note' } } }
    output: { $ref: '#/$defs/Ticket' }`;
const SPEC = `mcpgen: 1
server: { name: tickets, version: 1.0.0 }
$defs:
  Ticket:
    type: object
    properties:
      id: { type: string }
      assignee: { type: string, description: Who works on it. }
      status: { $ref: '#/$defs/Status' }
    required: [id]
  Status: { type: string, enum: [open, closed] }
  __proto__: { type: object, properties: { hostile: { type: string } } }
  Note: { type: object, properties: { text: { type: string } } }
tools:${Array.from({ length: TOOLS }, (_, i) => tool(i)).join('')}
  - name: odd
    input: { type: object, properties: { p: { $ref: '#/$defs/__proto__' } } }
`;

async function generated(): Promise<{ text: string; wire: unknown; expected: unknown }> {
  const dir = tempDir();
  const spec = join(dir, 'tickets.yaml');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(spec, SPEC);
  const result = await generate([spec], dir, { out: 'out' });
  expect(result.diagnostics).toEqual([]);
  const text = readFileSync(join(dir, 'out/tickets/definition.ts'), 'utf8');
  // The data as the runtime gets it: the module run (its one type import erased).
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  const mod = (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as { definition: { tools: { definition: unknown }[] } };
  return { text, wire: mod.definition, expected: definitionData(result.models[0]!) };
}

describe('shared $defs in definition.ts', () => {
  it('writes each shared definition once, however many tools use it', async () => {
    const { text } = await generated();
    // The Ticket schema's description appears once (it was once per input and once per output: 12 times).
    expect(text.split('Who works on it.').length - 1).toBe(1);
    expect(text.split('"hostile"').length - 1).toBe(1);
    expect(text.match(/"Ticket": defs\.Ticket/g)).toHaveLength(2 * TOOLS);
    expect(text).toContain('["__proto__"]: defs["__proto__"]');
  });

  it('keeps the wire data (and so tools/list) byte-identical to schemas with their own copies', async () => {
    const { wire, expected } = await generated();
    expect(JSON.stringify(wire)).toBe(JSON.stringify(expected));
    const tools = (wire as { tools: { definition: { inputSchema: { $defs: Record<string, unknown> }; outputSchema: { $defs: Record<string, unknown> } } }[] }).tools;
    // One object at run time, sent whole in each schema.
    expect(tools[0]!.definition.inputSchema.$defs.Ticket).toBe(tools[5]!.definition.outputSchema.$defs.Ticket);
    expect(Object.keys(tools[TOOLS]!.definition.inputSchema.$defs)).toEqual(['__proto__']);
  });
});
