// `x-*` keywords are annotations ajv is told about before compiling; a name ajv refuses to register
// (`x-odd.name`) made the whole check an internal error with a stack trace.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const spec = (schema: string) => `mcpgen: 1
server: { name: ext, version: 1.0.0 }
tools:
  - name: t
    description: d
    input:
      type: object
      properties:
        a: ${schema}
`;

describe('extension keywords', () => {
  it('an x- keyword ajv cannot name is a positioned MCPG019, not an internal error', () => {
    const r = checkText(spec('{ type: string, x-odd.name: 1, default: "a" }'));
    expect(r.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([['MCPG019', 9, 28, 'extension keyword "x-odd.name" in input schema of tool "t" cannot be compiled: ajv takes keyword names of letters, digits and _ $ : - only']]);
  });

  it('an x- keyword ajv can name is an annotation', () => {
    expect(checkText(spec('{ type: string, x-odd_name: 1, default: "a" }')).diagnostics).toEqual([]);
  });
});
