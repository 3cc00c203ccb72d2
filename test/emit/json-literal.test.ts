// jsonLiteral with named objects (definition.ts's shared `$defs`): subtrees that hold no named object are
// written by JSON.stringify and moved to their depth; the text must be what writing every value one by
// one gives (the writer before that shortcut, kept here as the reference).
import { describe, expect, it } from 'vitest';
import { jsonLiteral } from '../../src/emit/definition-file.js';

function reference(value: unknown, named: ReadonlyMap<object, string>, indent = ''): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const name = named.get(value);
  if (name !== undefined) return name;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + reference(v, named, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  return entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${reference(v, named, inner)}`).join(',\n')}\n${indent}}`;
}

describe('jsonLiteral with named objects', () => {
  it('writes the same text as value-by-value writing, named objects at any depth, shared subtrees included', () => {
    const shared = { type: 'object', properties: { id: { type: 'string' } } };
    const other = ['x', { y: 1 }];
    const plain = { a: [1, 'two', null, true, undefined, () => 1, { deep: [[], {}, [{}]] }], 'q"uote': 'line\nbreak \u2028', n: -0, big: 1e21, nan: NaN };
    const value = {
      tools: [
        { name: 't1', input: { $defs: { S: shared }, properties: { s: { $ref: '#/$defs/S' } } }, plain },
        { name: 't2', input: { $defs: { S: shared, O: other } }, more: [shared, [shared, { in: other }]], plain },
        { name: 't3', none: { x: { y: { z: [1, 2, 3] } } }, skip: undefined, fn: () => 2 },
      ],
      empty: {},
      list: [],
      ['__proto__']: { weird: true },
    };
    Object.defineProperty(value, '__proto__', { value: { weird: true }, enumerable: true });
    const named = new Map<object, string>([[shared, 'defs.S'], [other, 'defs.O']]);
    const expected = reference(value, named).replace(/\u2028/g, '\\u2028').replace(/^(\s*)"__proto__":/gm, '$1["__proto__"]:');
    expect(jsonLiteral(value, named)).toBe(expected);
    expect(expected).toContain('defs.S');
    expect(expected).toContain('"t3"');
    // Nothing named anywhere in a subtree of a named-holding value, and a named root.
    expect(jsonLiteral({ only: plain, s: shared }, named)).toBe(reference({ only: plain, s: shared }, named).replace(/\u2028/g, '\\u2028'));
    expect(jsonLiteral(shared, named)).toBe('defs.S');
  });

  it('data that holds text like the writer\'s own name markers is written as it is', () => {
    const shared = { type: 'string' };
    const named = new Map<object, string>([[shared, 'defs.S']]);
    for (const text of ['\u0000mcpgen-name-0\u0000', '"\u0000mcpgen-name-1\u0000', '\\u0000mcpgen-name-0\\u0000', 'mcpgen-name-0']) {
      const value = { a: shared, b: text, [text]: [shared, text] };
      expect(jsonLiteral(value, named), JSON.stringify(text)).toBe(reference(value, named));
      expect(jsonLiteral({ b: text }, named)).toBe(reference({ b: text }, named));
    }
  });
});
