// parse/plain-value.ts builds a document's value without yaml's toJS; it must give exactly what toJS gives
// (same keys in the same order, own `__proto__` keys, aliases sharing one object) or hand back to it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { NOT_PLAIN, plainValue } from '../../src/parse/plain-value.js';
import { parseSource } from '../../src/parse/source.js';
import { ROOT, sameValue as same } from '../helpers.js';
import { yamlFiles } from '../support/yaml-files.js';

const parse = (text: string) => parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: true, strict: true, resolveKnownTags: false });



/** toJS's value, or the error it throws. */
function viaToJS(text: string): unknown {
  try {
    return parse(text).toJS({ maxAliasCount: -1 });
  } catch (e) {
    return e instanceof Error ? e.constructor : e;
  }
}

describe('a YAML document value without toJS', () => {
  const cases = [
    'a: 1\nb: [x, 2.5, true, null, ~]\nc: { d: "e" }\n',
    '1: one\ntrue: yes\n~: nothing\n0x10: hex\n1.0: float\n',
    '__proto__: { polluted: true }\nconstructor: c\ntoString: s\n',
    'shared: &s { a: [1, 2] }\nfirst: *s\nsecond: *s\n',
    'list: &l [1, 2]\nmap: { k: *l }\nscalar: &v 3\nagain: *v\n',
    'a: &x 1\nb: &x 2\nc: *x\n', // the latest anchor before the alias
    '&k key: value\nother: *k\n',
    '- a\n- [b, c]\n- { d: e }\n- &z zed\n- *z\n',
    'plain\n',
    '',
    '"quoted": |\n  block\n  text\nfolded: >\n  a\n  b\n',
    '<<: { a: 1 }\nb: 2\n', // a `<<` key: toJS decides
    '[a: 1, b]\n', // a pair inside a flow sequence: a one-key mapping
    '? [complex]\n: key\n',
    '*nowhere\n', // an alias with no anchor: toJS throws
    'a: *later\nb: &later 1\n',
  ];

  it('equals toJS on crafted documents and hands the rest to it', () => {
    let plain = 0;
    for (const text of cases) {
      const doc = parse(text);
      if (doc.errors.length > 0) continue;
      const value = plainValue(doc);
      if (value === NOT_PLAIN) continue;
      plain++;
      expect(same(value, viaToJS(text)), text).toBe(true);
    }
    expect(plain).toBeGreaterThanOrEqual(10);
    // Aliases share one object, as toJS's do.
    const shared = plainValue(parse(cases[3]!)) as Record<string, unknown>;
    expect(shared.first).toBe(shared.shared);
    expect(shared.second).toBe(shared.shared);
    // `__proto__` is an own key holding data, not the object's prototype.
    const proto = plainValue(parse(cases[2]!)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.hasOwn(proto, '__proto__')).toBe(true);
    for (const text of ['<<: { a: 1 }\nb: 2\n', '? [complex]\n: key\n', '*nowhere\n', 'a: *later\nb: &later 1\n']) expect(plainValue(parse(text)), text).toBe(NOT_PLAIN);
  });

  it('equals toJS on every YAML file of the repository (fixtures, specs, config)', () => {
    const files = [...yamlFiles(join(ROOT, 'test/fixtures')), ...yamlFiles(join(ROOT, 'specs')), join(ROOT, 'mcpgen.config.yaml')];
    let plain = 0;
    for (const file of files) {
      // What the loader reads (alias bombs are refused before any expansion, so they are skipped here).
      const { source, diagnostics } = parseSource(file, readFileSync(file));
      if (diagnostics.length > 0) continue;
      const value = plainValue(source.doc);
      if (value === NOT_PLAIN) continue;
      plain++;
      expect(same(value, source.doc.toJS({ maxAliasCount: -1 })), file).toBe(true);
      expect(same(source.value, value), file).toBe(true);
    }
    expect(plain).toBeGreaterThan(60);
  });
});
