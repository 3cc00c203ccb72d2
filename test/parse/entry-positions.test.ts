// Issue 45 #9: on a large spec, a position inside one entry of a long list (what `mcpgen breaking` asks for)
// comes from that entry's text alone; it must be exactly the position the whole document gives.
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { locate, parseSource, PIECEWISE_MIN_CHARS, type JsonPath } from '../../src/parse/source.js';

const tools = Array.from({ length: 1500 }, (_, i) => `  - name: t${i}\n    description: "tool ${i}: does #${i}"\n    input:\n      type: object\n      properties:\n        city: { type: string }\n        units:\n          enum: [c, f]\n`).join('');
const text = `mcpgen: 1\nserver: { name: big, version: 1.0.0 }\ntools:\n${tools}resources:\n  - { uri: 'file:///a', name: a }\n`;

type Node = { range: number[]; items?: { key?: { value: unknown; range: number[] }; value?: Node; range?: number[] }[] };

/** The position yaml gives for the path on the whole document. */
function whole(path: JsonPath, target: 'value' | 'key'): { line: number; column: number } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const parent = doc.getIn(path.slice(0, -1), true) as Node;
  const last = path.at(-1)!;
  const item = typeof last === 'number' ? (parent.items![last] as unknown as Node) : undefined;
  const pair = item === undefined ? parent.items!.find((p) => p.key?.value === last)! : undefined;
  const offset = item !== undefined ? item.range[0]! : (target === 'key' ? pair!.key!.range : pair!.value!.range)[0]!;
  const p = lines.linePos(offset);
  return { line: p.line, column: p.col };
}

describe('positions inside one entry of a large spec', () => {
  const source = parseSource('big.yaml', new TextEncoder().encode(text)).source!;
  it.each([
    [['tools', 0, 'name'], 'value'],
    [['tools', 731, 'input', 'properties', 'units'], 'value'],
    [['tools', 731, 'input', 'properties', 'units', 'enum'], 'key'],
    [['tools', 1499, 'description'], 'value'],
    [['tools', 5], 'value'],
  ] as [JsonPath, 'value' | 'key'][])('%j (%s)', (path, target) => {
    expect(text.length).toBeGreaterThan(PIECEWISE_MIN_CHARS);
    expect(locate(source, path, target)).toEqual(whole(path, target));
  });
});
