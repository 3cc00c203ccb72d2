// Schema rules remember a clean outcome by schema shape (src/validate/rules/schema-shape.ts): tools whose
// schemas differ only in prose are checked once. Everything else must still be checked per tool.
import { describe, expect, it } from 'vitest';
import { schemaShape } from '../../src/validate/rules/schema-shape.js';
import { checkText } from '../helpers.js';

const HEAD = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';

function codes(text: string) {
  return checkText(text).diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`);
}

describe('schema shapes', () => {
  it('prose strings of subschemas are emptied; values, extension keywords and non-string prose are not', () => {
    const a = { type: 'object', description: 'A', properties: { x: { type: 'string', title: 'X', $comment: 'c' } } };
    const b = { type: 'object', description: 'B', properties: { x: { type: 'string', title: 'Y', $comment: 'd' } } };
    expect(schemaShape(a)).toBe(schemaShape(b));
    expect(schemaShape({ type: 'object', default: { description: 'a' } })).not.toBe(schemaShape({ type: 'object', default: { description: 'b' } }));
    expect(schemaShape({ const: { title: 'a' } })).not.toBe(schemaShape({ const: { title: 'b' } }));
    expect(schemaShape({ 'x-doc': { description: 'a' } })).not.toBe(schemaShape({ 'x-doc': { description: 'b' } }));
    expect(schemaShape({ description: 1 })).not.toBe(schemaShape({ description: 'x' }));
    // A property named `description` is a subschema, not prose.
    expect(schemaShape({ properties: { description: { type: 'string' } } })).not.toBe(schemaShape({ properties: { description: { type: 'number' } } }));
    expect(schemaShape({ properties: { description: 'a' } })).not.toBe(schemaShape({ properties: { description: 'b' } }));
  });

  it('a value the first tool of a shape has right and the second wrong is reported in the second', () => {
    const tool = (name: string, value: string) =>
      `  - name: ${name}\n    input: { type: object, description: ${name}, properties: { o: { type: object, properties: { description: { type: string, maxLength: 3 } }, default: { description: ${value} } } } }\n`;
    expect(codes(`${HEAD}tools:\n${tool('a', 'ok')}${tool('b', 'too-long')}`)).toEqual(['MCPG022@7:147']);
  });

  it('a problem in tools of one shape is reported in each', () => {
    const tool = (name: string) => `  - name: ${name}\n    input: { type: object, description: ${name}, properties: { n: { type: integer, minimun: 1 } } }\n`;
    expect(codes(`${HEAD}tools:\n${tool('a')}${tool('b')}${tool('c')}`)).toEqual(['MCPG020@5:78', 'MCPG020@7:78', 'MCPG020@9:78']);
  });

  it('a $ref cycle in tools of one shape is reported in each', () => {
    const tool = (name: string) => `  - name: ${name}\n    input: { type: object, description: ${name}, allOf: [{ $ref: '#' }] }\n`;
    expect(codes(`${HEAD}tools:\n${tool('a')}${tool('b')}`)).toEqual(['MCPG040@5:60', 'MCPG040@7:60']);
  });

  it('tools of one clean shape pass, a later one of another shape is still checked', () => {
    const tool = (name: string, type: string) => `  - name: ${name}\n    input: { type: object, description: ${name}, properties: { n: { type: ${type} } } }\n`;
    expect(codes(`${HEAD}tools:\n${tool('a', 'integer')}${tool('b', 'integer')}${tool('c', 'int')}`)).toEqual(['MCPG019@9:69']);
  });
});
