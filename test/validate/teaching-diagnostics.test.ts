import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { applyFixEdits } from '../support/fix-edits.js';
import { checkText } from '../helpers.js';

// Issue 47: the mistakes newcomers make most, each with the message that says what to write instead and
// the fix (Diagnostic.fix) that `check --format json` and `mcpgen lsp` offer. Applying the fix must leave
// a spec that checks clean.

const HEAD = 'mcpgen: 1\nserver:\n  name: demo\n  version: 1.0.0\n';

interface Case {
  readonly name: string;
  readonly spec: string;
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly fixTitle: string;
  /** A line the fixed text holds. */
  readonly fixed: string;
}

const CASES: Case[] = [
  {
    name: 'inputSchema (MCP wire name)',
    spec: `${HEAD}tools:\n  - name: get_item\n    inputSchema:\n      type: object\n      properties:\n        id: { type: string }\n`,
    code: 'MCPG003', line: 7, column: 5,
    message: 'unknown key "inputSchema" in "tools[0]": "inputSchema" is the name on the wire; a spec writes the tool\'s argument schema as "input"',
    fixTitle: 'Rename "inputSchema" to "input"',
    fixed: '    input:',
  },
  {
    name: 'outputSchema (MCP wire name)',
    spec: `${HEAD}tools:\n  - name: get_item\n    outputSchema: { type: object }\n`,
    code: 'MCPG003', line: 7, column: 5,
    message: 'unknown key "outputSchema" in "tools[0]": "outputSchema" is the name on the wire; a spec writes the tool\'s result schema as "output"',
    fixTitle: 'Rename "outputSchema" to "output"',
    fixed: '    output: { type: object }',
  },
  {
    name: 'task: true',
    spec: `${HEAD}tools:\n  - name: slow\n    task: true\n`,
    code: 'MCPG006', line: 7, column: 11,
    message: '"tools[0].task" is true, not a task setting: write `task: optional` (a task for clients that support tasks, synchronous for others) or `task: required`',
    fixTitle: 'Write `task: optional`',
    fixed: '    task: optional',
  },
  {
    name: 'URI template under resources',
    spec: `${HEAD}resources:\n  - uri: file:///items/{id}\n    name: item\n    mimeType: text/plain\n`,
    code: 'MCPG024', line: 6, column: 10,
    message: 'resource URI "file:///items/{id}" has a {variable}: it is a URI template; declare it under `resourceTemplates:` with `uriTemplate:`',
    fixTitle: 'Move to resourceTemplates',
    fixed: '  - uriTemplate: file:///items/{id}',
  },
  {
    name: 'required: indented under properties',
    spec: `${HEAD}tools:\n  - name: pri\n    input:\n      type: object\n      properties:\n        q:\n          type: string\n        required: [q]\n`,
    code: 'MCPG019', line: 12, column: 19,
    message: '"required" sits inside "properties", where it would declare a property named "required", in input schema of tool "pri": indent it one level less, beside "properties"',
    fixTitle: 'Move "required" beside "properties"',
    fixed: '      required: [q]',
  },
  {
    name: '$ref typo',
    spec: `${HEAD}tools:\n  - name: pri\n    input:\n      type: object\n      properties:\n        p: { $ref: '#/$defs/Priorty' }\n$defs:\n  Priority: { type: string, enum: [low, high] }\n`,
    code: 'MCPG023', line: 10, column: 20,
    message: '$ref "#/$defs/Priorty" does not resolve in input schema of tool "pri": no $defs entry "Priorty"; did you mean "#/$defs/Priority"?',
    fixTitle: 'Change to "#/$defs/Priority"',
    fixed: "        p: { $ref: '#/$defs/Priority' }",
  },
  {
    name: 'annotation destructive:',
    spec: `${HEAD}tools:\n  - name: drop\n    annotations:\n      destructive: true\n`,
    code: 'MCPG112', line: 8, column: 7,
    message: 'annotation "destructive" of tool "drop" is not an MCP tool hint: it is sent as written, but hosts do not read it; did you mean "destructiveHint"?',
    fixTitle: 'Rename "destructive" to "destructiveHint"',
    fixed: '      destructiveHint: true',
  },
  {
    name: 'x-mcp-header at tool level',
    spec: `${HEAD}tools:\n  - name: hdr\n    x-mcp-header: Region\n    input:\n      type: object\n      properties:\n        region: { type: string }\n`,
    code: 'MCPG003', line: 7, column: 5,
    message: 'unknown key "x-mcp-header" in "tools[0]": x-mcp-header belongs on the property of "input" whose value the header carries (input.properties.region)',
    fixTitle: 'Move x-mcp-header onto input.properties.region',
    fixed: '        region: { type: string, x-mcp-header: Region }',
  },
  {
    name: 'typo of an ordinary key (already a did-you-mean: now with its fix)',
    spec: `${HEAD}tools:\n  - name: t\n    descripton: Does things.\n`,
    code: 'MCPG003', line: 7, column: 5,
    message: 'unknown key "descripton" in "tools[0]"; did you mean "description"?',
    fixTitle: 'Rename "descripton" to "description"',
    fixed: '    description: Does things.',
  },
  {
    name: 'unknown JSON Schema keyword (did-you-mean, now with its fix)',
    spec: `${HEAD}tools:\n  - name: t\n    input:\n      type: object\n      properties:\n        n: { type: integer, minimun: 1 }\n`,
    code: 'MCPG020', line: 10, column: 29,
    message: 'unknown JSON Schema keyword "minimun" in input schema of tool "t"; did you mean "minimum"?',
    fixTitle: 'Rename "minimun" to "minimum"',
    fixed: '        n: { type: integer, minimum: 1 }',
  },
  {
    name: 'unknown format (did-you-mean, now with its fix)',
    spec: `${HEAD}tools:\n  - name: t\n    input:\n      type: object\n      properties:\n        at: { type: string, format: date-tme }\n`,
    code: 'MCPG111', line: 10, column: 37,
    message: 'unknown format "date-tme" in input schema of tool "t" is not checked (values are accepted as if it were absent); did you mean "date-time"?',
    fixTitle: 'Change to "date-time"',
    fixed: '        at: { type: string, format: date-time }',
  },
];

function only(diagnostics: readonly Diagnostic[]): Diagnostic {
  expect(diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`)).toHaveLength(1);
  return diagnostics[0]!;
}

describe('diagnostics that teach (issue 47)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const d = only(checkText(c.spec).diagnostics);
      expect({ code: d.code, line: d.line, column: d.column, message: d.message }).toEqual({ code: c.code, line: c.line, column: c.column, message: c.message });
      expect(d.fix?.title).toBe(c.fixTitle);
      expect(d.fix!.edits.every((e) => e.file === d.file)).toBe(true);
      const fixed = applyFixEdits(c.spec, d.fix!.edits);
      expect(fixed.split('\n')).toContain(c.fixed);
      expect(checkText(fixed).diagnostics.map((x) => `${x.code} ${x.message}`)).toEqual([]);
    });
  }

  it('moves a templated resource into an existing resourceTemplates list, leaving the other resources', () => {
    const spec = `${HEAD}resources:\n  - uri: file:///readme\n    name: readme\n  - uri: file:///items/{id}\n    name: item\nresourceTemplates:\n  - uriTemplate: file:///users/{id}\n    name: user\n`;
    const d = only(checkText(spec).diagnostics);
    const fixed = applyFixEdits(spec, d.fix!.edits);
    expect(fixed).toBe(`${HEAD}resources:\n  - uri: file:///readme\n    name: readme\nresourceTemplates:\n  - uriTemplate: file:///users/{id}\n    name: user\n  - uriTemplate: file:///items/{id}\n    name: item\n`);
  });

  it('moves a required list from the middle of properties to after them', () => {
    const spec = `${HEAD}tools:\n  - name: t\n    input:\n      type: object\n      properties:\n        a: { type: string }\n        required: [a]\n        b: { type: string }\n    annotations: { readOnlyHint: true }\n`;
    const d = only(checkText(spec).diagnostics);
    const fixed = applyFixEdits(spec, d.fix!.edits);
    expect(fixed).toContain('      properties:\n        a: { type: string }\n        b: { type: string }\n      required: [a]\n    annotations');
    expect(checkText(fixed).diagnostics).toEqual([]);
  });

  it('offers no header move when no property matches the header name', () => {
    const spec = `${HEAD}tools:\n  - name: hdr\n    x-mcp-header: Region\n    input:\n      type: object\n      properties:\n        zone: { type: string }\n`;
    const d = only(checkText(spec).diagnostics);
    expect(d.message).toBe('unknown key "x-mcp-header" in "tools[0]": x-mcp-header belongs on the property of "input" whose value the header carries (input.properties.<name>.x-mcp-header)');
    expect(d.fix).toBeUndefined();
  });
});
