// The importers' YAML writer (src/import/common/yaml-spec.ts): what it writes reads back, with `yaml` (the
// spec loader's parser) and js-yaml, as the very value it was given, written the same way every time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { importFiles } from '../../src/import/common/owned-spec.js';
import { specToYaml } from '../../src/import/common/yaml-spec.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { forgetKnownValues, knowValue } from '../../src/parse/known-values.js';
import { parseSource } from '../../src/parse/source.js';
import { ROOT, sameValue, tempDir } from '../helpers.js';
import { freshCacheDirPerTest } from '../support/cache-dir.js';

/** Strings a plain scalar would turn into something else, or that need a quote, a block or an escape. */
const TRICKY: Record<string, unknown> = {
  words: ['off', 'yes', 'n', 'y', 'True', 'null', '~', '', ' ', 'NaN', '.nan', '.inf', '<<', '=', '---', '...'],
  numbers: ['12', '1e3', '0x1F', '0o17', '0b101', '1_000', '+.5', '1:20', '2020-01-01', 12, -3.5, 1e21, 0],
  marks: ['#x', 'x #y', 'a: b', '- x', '@x', '`x', '!x', '%x', '*x', '&x', '|', '>', '"', "'", 'say "hi"', "it's", `'q' "d"`],
  spaces: [' lead', 'trail ', 'a\tb', '\t\n', 'x\r\ny', '\u2028', 'a\u0085b\nc', '\u0000', 'é'],
  blocks: ['line1\n\tline2\n', 'tab\tthen\nline', '  indented first\nline', 'x\n\n', '\nlead nl', 'end spaces  \nx', 'a\n', '\n', `multi\nwith "dq" and 'sq'`],
  '+1': 1,
  '-1': [[], {}, null, true],
  long: `${'word '.repeat(100)}end`,
};

describe('specToYaml', () => {
  const text = specToYaml(TRICKY, ['first line', 'second line']);

  it('reads back as the same value, with yaml and with js-yaml', () => {
    expect(parse(text)).toEqual(TRICKY);
    expect(load(text)).toEqual(TRICKY);
  });

  // What lets the import's check take the value it wrote from instead of reading the text (parse/known-values.ts).
  it("reads back through the spec loader's own reader as the same value, key order included", () => {
    const read = parseSource('s.yaml', new TextEncoder().encode(text));
    expect(read.diagnostics).toEqual([]);
    expect(sameValue(read.source.value, TRICKY)).toBe(true);
  });

  it('the header as comment lines, block style, no folding of a long line, a multi-line string as a literal block', () => {
    expect(text.startsWith('# first line\n# second line\n\nwords:\n  - "off"\n')).toBe(true);
    expect(text).toContain(`\nlong: ${'word '.repeat(100)}end\n`);
    expect(text).toContain('\n  - |-\n    tab\tthen\n    line\n');
    expect(text).toContain(`\n  - say "hi"\n`);
  });

  it('keys in the order given; a shared object written out each time, never as an anchor', () => {
    const shared = { type: 'string', enum: ['a', 'b'] };
    const out = specToYaml({ z: shared, a: { deep: shared }, m: [shared] }, ['h']);
    expect(out).not.toMatch(/[&*]\w/);
    expect([...out.matchAll(/^(\w+):/gm)].map((m) => m[1])).toEqual(['z', 'a', 'm']);
    expect(parse(out)).toEqual({ z: shared, a: { deep: shared }, m: [shared] });
  });

  it('the same text for the same value, run after run', () => {
    expect(specToYaml(structuredClone(TRICKY), ['first line', 'second line'])).toBe(text);
  });
});

describe('specToYaml on the vendored OpenAPI descriptions', () => {
  // js-yaml leaves out a key whose value is undefined and writes null for an undefined list item: the
  // importers' values must hold neither, or the check would see another value than `generate` reads.
  const FIXTURES = ['oas-examples/swagger-2.0-petstore.json', 'oas-examples/openapi-3.0-petstore.json', 'oas-examples/openapi-3.1-petstore.json', 'oas-examples/openapi-3.0-star-trek.json', 'oas-examples/openapi-3.0-uspto.json', 'oas-examples/openapi-3.1-train-travel.json', 'MCPG131-media-range.yaml', 'MCPG132-security.yaml'];
  for (const fixture of FIXTURES) {
    it(`${fixture}: the owned file reads back, through the loader, as the value it was written from`, async () => {
      const dir = tempDir();
      const { spec } = await importOpenApi(join(ROOT, 'test/fixtures/openapi', fixture), dir, { name: 'api' });
      const written = importFiles(spec, { command: 'mcpgen import openapi', from: fixture, rootPath: join(dir, 'specs/api.yaml'), force: false, cwd: dir, kind: 'openapi' });
      const read = parseSource('o.yaml', new TextEncoder().encode(written.files.get(written.ownedPath)!));
      expect(read.diagnostics).toEqual([]);
      expect(sameValue(read.source.value, written.ownedValue)).toBe(true);
    });
  }
});

describe("specToYaml on GitHub's REST description (1,223 tools)", () => {
  // An empty cache folder: the loader must read this text's YAML, not a value an earlier import kept (parse/value-cache.ts).
  freshCacheDirPerTest();

  it('the owned file the import writes reads back, through the loader, as the value it was written from; so does its JSON', async () => {
    const dir = tempDir();
    const file = join(dir, 'api.github.com.json');
    writeFileSync(file, gunzipSync(readFileSync(join(ROOT, 'test/fixtures/openapi/github/api.github.com.json.gz'))));
    const { spec } = await importOpenApi(file, dir, { name: 'github' });
    const written = importFiles(spec, { command: 'mcpgen import openapi', from: file, rootPath: join(dir, 'specs/github.yaml'), force: false, cwd: dir, kind: 'openapi' });
    const text = written.files.get(written.ownedPath)!;
    const read = parseSource('o.yaml', new TextEncoder().encode(text));
    expect(read.diagnostics).toEqual([]);
    expect(sameValue(read.source.value, written.ownedValue)).toBe(true);
    // What lets a later process take the value from the cache instead of the YAML (parse/value-cache.ts).
    expect(knowValue(text, written.ownedValue)).toBe(true);
    forgetKnownValues();
    expect(sameValue(JSON.parse(JSON.stringify(written.ownedValue)), read.source.value)).toBe(true);
  }, 60_000);
});
