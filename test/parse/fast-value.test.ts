// parse/fast-value.ts reads a spec's value with js-yaml where `yaml` and js-yaml read the text alike.
// What must hold: whenever the fast reader gives a value, `yaml` reads the same text without an error or
// a warning and gives exactly that value (same keys in the same order, Object.is numbers); and
// parseSource (whole text, pieces, --watch's entry cache) returns what it returns with `yaml` alone.
// Checked on every YAML file in the repository and on thousands of seeded random texts made of the
// forms where the two libraries part ways; removing any gate of fast-value.ts makes this file fail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fastValue, NOT_FAST, withoutFastValue } from '../../src/parse/fast-value.js';
import { enableEntryCache, sweepEntryCache } from '../../src/parse/entry-cache.js';
import { parseSource, PIECEWISE_MIN_CHARS } from '../../src/parse/source.js';
import { ROOT, sameValue } from '../helpers.js';
import { randomDocument, randomSpec, seeded } from './random-yaml.js';
import { yamlFiles } from '../support/yaml-files.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** parseSource's answer in comparable form: the value and the diagnostics. */
function answer(text: string, file = 'spec.yaml'): { value: unknown; diagnostics: unknown } {
  const { source, diagnostics } = parseSource(file, encode(text));
  return { value: source.value, diagnostics };
}

/** The property, for one text: which reader took it ('fast' or 'yaml'); throws with the text when they differ. */
function check(text: string): 'fast' | 'yaml' {
  const reference = withoutFastValue(() => answer(text));
  const fast = fastValue(text);
  if (fast !== NOT_FAST) {
    if ((reference.diagnostics as unknown[]).length > 0) {
      throw new Error(`the fast reader took a text yaml reports (${JSON.stringify(reference.diagnostics)}):\n${JSON.stringify(text)}`);
    }
    if (!sameValue(fast, reference.value)) {
      throw new Error(`the fast reader's value differs:\n${JSON.stringify(text)}\nfast: ${show(fast)}\nyaml: ${show(reference.value)}`);
    }
  }
  // A small text the fast reader refuses goes the yaml-only way: nothing more to compare.
  if (fast === NOT_FAST && text.length < PIECEWISE_MIN_CHARS) return 'yaml';
  const now = answer(text);
  if (!sameValue(now.value, reference.value) || JSON.stringify(now.diagnostics) !== JSON.stringify(reference.diagnostics)) {
    throw new Error(`parseSource differs from the yaml-only parse:\n${JSON.stringify(text)}`);
  }
  return fast === NOT_FAST ? 'yaml' : 'fast';
}

function show(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? `<${Object.is(v, -0) ? '-0' : String(v)}>` : v));
}


/** Texts tried one by one while the gates were written: each form alone, in a value and as a key. */
const HAND_PICKED = [
  ...['1', '-0', '+1', '0o17', '0x1F', '1_000', '007', '.inf', '-.Inf', '.NaN', '1e3', '1.', '.5', '2e308', '-1e400', '1e-400', '9'.repeat(320), `0x${'f'.repeat(300)}`,
    '12345678901234567890123', 'true', 'True', 'tRUE', 'yes', 'null', 'Null', 'NULL', '~', '', '2001-12-14', '<<', '__proto__', 'constructor', '"1"', "'true'", '""']
    .flatMap((s) => [`a: ${s}\n`, `${s}: a\n`, `- ${s}\n`, `a: [${s}]\n`, `a: {${s}: b}\n`]),
  ...['!!float 1', '!!int 1.5', '!!str 1', '!!int "1"', '!!binary aGk=', '!!set {a}', '!!timestamp 2001-12-14', '!!omap [a: 1]', '!!pairs [a: 1]', '! 1', '!thing b', '!<tag:yaml.org,2002:str> 1', '!!null ""', '!!bool true', '!!map {}', '!!seq []']
    .map((s) => `a: ${s}\n`),
  'a: &a [*a]\n', 'a: &a {b: *a}\n', 'a: *b\n', 'a: &a 1\nb: &a 2\nc: *a\n', '&a a: b\nc: *a\n', 'a: &x {y: 1}\nb: *x\n', 'a:\n  <<: {b: 1}\n',
  '\ufeffa: 1\n', 'a: 1\r\nb: |\r\n  x\r\n  y\r\n', 'a: "x\r\n  y"\r\n', 'a: 1\rb: 2\n', 'a: b\u2028c\n', 'a: b\u0085c\n', 'a: b\ufeff\n',
  'a: |\n  x\n  y\n', 'a: |-\n  x\n\n', 'a: |+\n  x\n\n', 'a: |2\n    x\n', 'a: >\n  x\n  y\n\n  z\n', 'a: >-\n  x\n    y\n  z\n', 'a: |\n', 'a: |\n    x\n  y\n',
  'a: b\n  c\n\n  d\n', 'a: "b\n  c\n\n  d"\n', "a: 'b\n  c'\n", 'a: "\\u00e9\\x41\\N\\_\\L\\P\\/\\ \\0\\a\\e\\U0001F600\\ud83d\\ude00"\n', 'a: "x\\\n   y"\n',
  'a: [a, , b]\n', 'a: {b: }\n', 'a: [? a : b]\n', 'a: {a}\n', 'a: [b: c]\n', 'a: [\n  b,\n  c\n]\n', 'a: {\n  b: c\n}\n', '? a\n: b\n', '[a, b]: c\n',
  '---\na: 1\n', 'a: 1\n...\n', '--- |\n  x\n', '%YAML 1.2\n---\na: 1\n', '...\na: 1\n', '-\n  e: 1\n  a:\n  - {}  e}n: off\n', "k:\n- 'ab'  c: d\n", 'k:\n- [a]  c: d\n', 'k: "a" : b\n', "enum0:\n#' a\n  -x '0.0'\na1: p\n", 'a: >1\n   x\n  \nb: 1\n', 'a: |1-\n  x\n  y\n   \n  \nb: 1\n', 'name0:\n-  {input: false}enum1: a\n', 'p:\n- {n: [b]}i: e\n', 'p:\n- [a]b: c\n', '- a:\n  #c\n    x\n    y\n  b: 1\n', 'a:\n  #c\n    x\n\n    y\nb: 1\n', "k:\n- 'ab'c: d\nz: 1\n", 'x:\n  i:\n  - "ab"a2: []\n', "a: 'x'#c\n", "a: ['x'y]\n", ' |-1\n\n input\n - item\n- b: c\n', '|\n  x\n', '"a"\n', '# c\n\n...\n-\n', `a: 0x${'f'.repeat(256)}\n`, 'a: 1\n---\nb: 2\n', '', '# only\n', 'a', '- a\n- b\n',
  `${'k'.repeat(1100)}: v\n`, `"${'k'.repeat(1100)}": v\n`, `a: ${'x'.repeat(5000)}\n`, 'a: 1\na: 2\n', '1: a\n1.0: b\n', '1: a\n"1": b\n', '.nan: a\n.nan: b\n',
  'a: "\\U00110000"\n', 'a: "\\UFFFFFFFF"\n', 'a: "\\U0010FFFF"\n', 'a: "\\U0000D800"\n', 'a: "\\\\U00110000"\n', "a: 'C:\\Users'\n", 'a: C:\\Users\n',
  'a: "b\\\n\n   c"\n', 'a: "b \\\n \n \\ c"\n', 'a: "b\\\n\n\n  c"\n', 'a: "b\\\n\\\n  c"\n', 'a: "b\n\t\n c"\n', "a: 'b\n\t\n c'\n", 'a: b\n\t\n c\n', 'a: b\n \t \n c\n', '- a: b\n \t\n    `c\n', 'a: |\n  b\n\t\n  c\n',
  'a:\tb\n', 'a: b\t\n', '\ta: b\n', 'a:\n\t- b\n', 'a: |\n  x\ty\n', 'a: "b\tc"\n',
];

describe('the fast YAML value reader', () => {
  it('reads every YAML file of the repository as yaml does', () => {
    const files = ['test/fixtures', 'specs', 'examples'].flatMap((dir) => yamlFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    const taken = files.map((file) => check(readFileSync(file, 'utf8')));
    // Most of them are plain specs: the fast reader must actually be used.
    expect(taken.filter((t) => t === 'fast').length).toBeGreaterThan(files.length / 2);
  });

  it('agrees with yaml on thousands of random texts of the forms where the two part ways', () => {
    // yaml's toJS warns of each key that is a collection (`[a, b]: c`): expected here, and not news.
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const random = seeded(20261205);
    const counts = { fast: 0, yaml: 0 };
    try {
      for (let i = 0; i < 3000; i++) counts[check(randomDocument(random))]++;
    } finally {
      warn.mockRestore();
    }
    // Both readers are exercised: the gates neither refuse everything nor let everything through.
    expect(counts.fast).toBeGreaterThan(800);
    expect(counts.yaml).toBeGreaterThan(800);
  });

  it('agrees with yaml on the forms tried by hand', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      for (const text of HAND_PICKED) check(text);
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    ['null keys', '~: a\nnull: b\n'],
    ['an empty key', ': a\n'],
    ['a null key in a flow mapping', 'a: {: b}\n'],
    ['a number beyond ±1.8e308', `a: 2e308\nb: ${'9'.repeat(320)}\n`],
    ['a key longer than 1024 characters', `${'k'.repeat(1100)}: v\n`],
    ['a repeated byte order mark', '\ufeff\ufeffa: b\n'],
    ['a lone CR', 'a: 1\rb: 2\n'],
    ['an alias bomb', 'a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n'],
    ['an unknown tag', 'a: !thing b\n'],
    ['a YAML 1.1 tag', 'a: !!binary aGk=\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['an empty document', '# only a comment\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['equal keys of two spellings', '1: a\n"1": b\n'],
    ['a tab as indentation', 'a:\n\tb: 1\n'],
    ['a merge key', 'base: {x: 1}\nm:\n  <<: {y: 2}\n'],
  ])('leaves %s to yaml', (_name, text) => {
    expect(fastValue(text)).toBe(NOT_FAST);
    check(text);
  });

  it('reads large specs by pieces, the pieces fast, as the yaml-only parse does', () => {
    const random = seeded(7);
    for (let i = 0; i < 6; i++) {
      const text = randomSpec(random, PIECEWISE_MIN_CHARS);
      expect(text.length).toBeGreaterThanOrEqual(PIECEWISE_MIN_CHARS);
      check(text);
    }
  });

  it('keeps --watch entries by identity across runs', () => {
    const random = seeded(11);
    const text = randomSpec(random, PIECEWISE_MIN_CHARS, true);
    enableEntryCache();
    try {
      const first = answer(text, 'watched.yaml').value as { tools: unknown[] };
      sweepEntryCache();
      const edited = text.replace('name: tool_3\n', 'name: tool_3_edited\n');
      const second = answer(edited, 'watched.yaml').value as { tools: unknown[] };
      sweepEntryCache();
      expect(second.tools[0]).toBe(first.tools[0]);
      expect(second.tools[3]).not.toBe(first.tools[3]);
      expect(sameValue(second, withoutFastValue(() => answer(edited).value))).toBe(true);
    } finally {
      sweepEntryCache();
    }
  });
});
