// Issue 47: a fix's edit inside one entry of a large spec's long list (what `mcpgen lsp` offers after each
// keystroke) is made from that entry's text alone, never from the whole document (parsing a 1,000-tool spec
// whole cost ~0.3 s per edit); the edits must be exactly the ones the whole document gives.
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renameKeyEdit, replaceScalarEdit } from '../../src/parse/edits.js';
import { movePairInto, movePairUp } from '../../src/parse/moves.js';
import { parseSource, PIECEWISE_MIN_CHARS, type SourceFile } from '../../src/parse/source.js';

const tool = (i: number): string =>
  i === 700
    ? `  - name: t${i}\n    descripton: "tool ${i}"\n    task: true\n    x-mcp-header: Region\n    input:\n      type: object\n      properties:\n        region: { type: string, minimun: 1 }\n        required: [region]\n`
    : `  - name: t${i}\n    description: "tool ${i}: does #${i}"\n    input:\n      type: object\n      properties:\n        city: { type: string }\n`;
const text = `mcpgen: 1\nserver: { name: big, version: 1.0.0 }\ntools:\n${Array.from({ length: 1200 }, (_, i) => tool(i)).join('')}`;

/** The file as the pipeline reads it, with its whole document out of reach. */
const read = parseSource('big.yaml', new TextEncoder().encode(text)).source;
function entryOnly(): SourceFile {
  return Object.create(read, { doc: { get: () => { throw new Error('the whole document was parsed'); } } }) as SourceFile;
}

/** The same file parsed whole, as before (once: it is what takes the time here). */
let parsedWhole: SourceFile | undefined;
function whole(): SourceFile {
  if (parsedWhole !== undefined) return parsedWhole;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return (parsedWhole = { file: 'big.yaml', text, doc, lines, value: undefined });
}

describe('fix edits inside one entry of a large spec', () => {
  it.each([
    ['rename a key', (s: SourceFile) => renameKeyEdit(s, ['tools', 700, 'descripton'], 'description')],
    ['rename a key in a flow mapping', (s: SourceFile) => renameKeyEdit(s, ['tools', 700, 'input', 'properties', 'region', 'minimun'], 'minimum')],
    ['replace a scalar', (s: SourceFile) => replaceScalarEdit(s, ['tools', 700, 'task'], 'optional')],
    ['move a pair into a mapping', (s: SourceFile) => movePairInto(s, ['tools', 700, 'x-mcp-header'], ['tools', 700, 'input', 'properties', 'region'])],
    ['move a pair up', (s: SourceFile) => movePairUp(s, ['tools', 700, 'input', 'properties', 'required'])],
  ])('%s', (_name, edit) => {
    expect(text.length).toBeGreaterThan(PIECEWISE_MIN_CHARS);
    const expected = edit(whole());
    expect(expected).toBeDefined();
    expect(edit(entryOnly())).toEqual(expected);
  });
});
