// A large spec is read a list entry at a time (parse/long-sequences.ts, piecewiseValue in parse/source.ts).
// What must hold: whenever the pieces give a value, the whole document parses without an error and gives
// exactly that value; anything else (errors, anchors, odd layout) leaves the whole parse to report it.
// Checked on crafted layouts and on thousands of random line edits of a spec full of YAML's tricky forms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { splitLongSequences } from '../../src/parse/long-sequences.js';
import { parseSource, piecewiseValue, PIECEWISE_MIN_CHARS } from '../../src/parse/source.js';
import { ROOT, sameValue as same } from '../helpers.js';
import { yamlFiles } from '../support/yaml-files.js';

const OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: true, resolveKnownTags: false } as const;


/** The property: a piecewise value only where the whole document is clean, and then the same value. */
function check(text: string): 'pieces' | 'whole' {
  const value = piecewiseValue(text);
  if (value === undefined) return 'whole';
  const doc = parseDocument(text, OPTIONS);
  const problems = [...doc.errors.map((e) => e.code), ...doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED').map((w) => w.code)];
  if (problems.length > 0) throw new Error(`pieces gave a value where the whole document has ${problems.join(', ')}:\n${text}`);
  if (!same(value, doc.toJS())) throw new Error(`pieces and the whole document differ:\n${text}`);
  return 'pieces';
}

/** A tool entry holding YAML's multi-line forms, at entry indentation `k`. */
function tool(i: number, k: number): string {
  const p = ' '.repeat(k);
  const q = ' '.repeat(k + 2);
  return [
    `${p}- name: tool_${i}`,
    `${q}description: |`,
    `${q}  A block scalar whose lines look like entries:`,
    `${q}  - name: not_a_tool`,
    `${q}    - nested: also text`,
    ``,
    `${q}  # not a comment either`,
    `${q}title: "a double-quoted`,
    `${q}   title over lines ${i}"`,
    `${q}summary: plain text that`,
    `${q}   goes on ${i}`,
    `${q}tags: [a, b,`,
    `${q}   c]`,
    `# a comment at column 0 between keys`,
    `${q}folded: >-`,
    `${q}  folded`,
    `${q}  text`,
    `${q}input: { type: object,`,
    `${q}  properties: { n: { type: integer } } }`,
    `${q}list:`,
    `${q}- x`,
    `${q}- 'y'`,
    `${q}empty:`,
    `${q}-`,
    `${q}  name: entry on the next line`,
  ].join('\n');
}

function spec(tools: number, k: number, extra = ''): string {
  const entries = Array.from({ length: tools }, (_, i) => tool(i, k)).join('\n');
  return `mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n# comment\ntools:\n${entries}\n${extra}prompts:\n${Array.from({ length: 20 }, (_, i) => `${' '.repeat(k)}- name: p${i}`).join('\n')}\n`;
}


/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('reading a large spec a list entry at a time', () => {
  it('gives the whole document’s value on specs of every layout it cuts', () => {
    for (const k of [0, 2, 4]) {
      expect(check(spec(30, k))).toBe('pieces');
      expect(check(spec(30, k, 'resources: []\n'))).toBe('pieces');
      expect(check(spec(30, k).replaceAll('\n', '\r\n'))).toBe('pieces'); // Windows line ends
    }
    const split = splitLongSequences(spec(30, 2))!;
    expect(split.sequences.map((s) => [s.key, s.counts.reduce((a, b) => a + b, 0)])).toEqual([
      ['tools', 30],
      ['prompts', 20],
    ]);
  });

  it('leaves to the whole parse what it cannot be sure of, and what has errors', () => {
    const base = spec(30, 2);
    const cases: Record<string, string> = {
      'document marker': `---\n${base}`,
      'second document': `${base}---\nother: 1\n`,
      directive: `%YAML 1.2\n---\n${base}`,
      'lone CR line ends': base.replaceAll('\n', '\r'),
      'an anchor in one entry, its alias in another': base.replace('name: tool_3', 'name: &n tool_3').replace('name: tool_9', 'name: *n'),
      'an alias with no anchor': base.replace('name: tool_9', 'name: *n'),
      'a duplicate key in an entry': base.replace('  - name: tool_7', '  - name: tool_7\n    name: again'),
      'a duplicate top-level key': `${base}tools:\n  - name: late\n`,
      'a line indented between the entries and the key': base.replace('  - name: tool_5', ' x: 1\n  - name: tool_5'),
      'a tab as indentation': base.replace('  - name: tool_5', '\t- name: tool_5'),
      'an unknown tag': base.replace('name: tool_5', 'name: !custom tool_5'),
      'an unclosed quote': base.replace('title over lines 5"', 'title over lines 5'),
      'a key indented like an entry': base.replace('  - name: tool_5', '  name: tool_5'),
    };
    for (const [what, text] of Object.entries(cases)) expect(check(text), what).toBe('whole');
  });

  it('keeps the property under hundreds of random line edits', () => {
    const base = spec(24, 2).split('\n');
    const next = random(17);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const snippets = ['  - name: x', '- y', '"', "'", '[', '}', '# c', '  |', 'key: v', '    -', '', '\t', '&a', '*a', '---', '  ? k', ': v'];
    let pieces = 0;
    for (let round = 0; round < 600; round++) {
      const lines = [...base];
      for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * lines.length);
        const op = Math.floor(next() * 6);
        if (op === 0) lines.splice(at, 1);
        else if (op === 1) lines.splice(at, 0, lines[Math.floor(next() * lines.length)]!);
        else if (op === 2) lines[at] = ` ${lines[at]}`;
        else if (op === 3) lines[at] = lines[at]!.replace(/^ /, '');
        else if (op === 4) lines.splice(at, 0, pick(snippets));
        else lines[at] = `${lines[at]} ${pick(snippets)}`;
      }
      if (check(lines.join('\n')) === 'pieces') pieces++;
    }
    // Most edits keep the document valid, and most valid ones are still cut: the property is not met vacuously.
    expect(pieces).toBeGreaterThan(100);
  });

  it('holds on every YAML file of the repository', () => {
    const files = ['specs', 'test', 'examples', 'conformance'].flatMap((dir) => yamlFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) check(readFileSync(file, 'utf8'));
  });

  it('parses the whole document only when a diagnostic needs a position, and places it right', () => {
    const filler = spec(Math.ceil(PIECEWISE_MIN_CHARS / tool(0, 2).length) + 10, 2);
    expect(filler.length).toBeGreaterThan(PIECEWISE_MIN_CHARS);
    const clean = parseSource('big.yaml', new TextEncoder().encode(filler));
    expect(clean.diagnostics).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(clean.source, 'doc')?.get).toBeTypeOf('function'); // not parsed yet
    expect((clean.source.value as { tools: unknown[] }).tools.length).toBeGreaterThan(100);
    // A YAML error deep in the list is reported by the whole parse, at its line.
    const lines = filler.split('\n');
    const at = lines.indexOf('  - name: tool_90');
    lines.splice(at + 1, 0, '    name: twice');
    const broken = parseSource('big.yaml', new TextEncoder().encode(lines.join('\n')));
    expect(broken.diagnostics.map((d) => [d.code, d.line])).toEqual([['MCPG002', at + 2]]);
  });
});
