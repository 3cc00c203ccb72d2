// Issue 47: a hover on a large spec answers from the entry under the cursor. It used to read the whole
// YAML document (seconds on the 1,000-tool benchmark spec, on the server's main thread, after every edit)
// and to build the spec's index for every hover; now the document is read only for a `$ref` (its index).
// Bounded by what is read (the document getter), and the spot must be the one the whole document gives.
import { describe, expect, it } from 'vitest';
import { hover } from '../../src/lsp/hover.js';
import { spotAt, spotInSource } from '../../src/lsp/spots.js';
import { parseSource, PIECEWISE_MIN_CHARS, type SourceFile } from '../../src/parse/source.js';

const { syntheticSpec } = (await import(new URL('../../bench/synthetic-spec.mjs', import.meta.url).href)) as { syntheticSpec: (tools: number, name: string) => string };

const TEXT = syntheticSpec(150, 'big');

/** The parsed file, counting reads of its whole YAML document. */
function counted(): { source: SourceFile; reads: () => number } {
  const parsed = parseSource('specs/big.yaml', new TextEncoder().encode(TEXT)).source!;
  let reads = 0;
  const source: SourceFile = {
    file: parsed.file,
    text: parsed.text,
    value: parsed.value,
    get doc() {
      reads++;
      return parsed.doc;
    },
    get lines() {
      return parsed.lines;
    },
  };
  return { source, reads: () => reads };
}

describe('hover on a large spec (issue 47)', () => {
  it('reads only the entry under the cursor', () => {
    expect(TEXT.length).toBeGreaterThan(PIECEWISE_MIN_CHARS);
    const { source, reads } = counted();
    const name = TEXT.indexOf('name: tool_0077') + 'name: '.length + 2;
    const h = hover(source, name, () => undefined);
    expect((h?.contents as { value: string }).value).toContain('handler method');
    const key = TEXT.indexOf('maxItems:', name) + 3;
    expect((hover(source, key, () => undefined)?.contents as { value: string }).value).toContain('**maxItems**');
    expect(reads()).toBe(0);
  });

  it('finds the same spot as the whole document does', () => {
    const { source } = counted();
    const whole = parseSource('specs/big.yaml', new TextEncoder().encode(TEXT)).source!.doc;
    const at = (needle: string, from = 0): number => TEXT.indexOf(needle, from);
    const tool = at('name: tool_0120');
    for (const offset of [tool + 8, at('description:', tool) + 2, at('maxItems', tool) + 1, at('$ref', tool) + 1, at('TimeWindow', tool) + 3, at('\n  - ', tool) + 2, 3, at('$defs:') + 1]) {
      expect(spotInSource(source, offset), `offset ${offset}`).toEqual(spotAt(whole, offset));
    }
  });
});
