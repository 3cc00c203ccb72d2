// The value of a large file an importer wrote, kept in mcpgen's cache folder for the next process
// (src/parse/value-cache.ts): found only for exactly the text it was kept for, only for a large text,
// never for a value JSON would change, and a few at most.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetKnownValues, knowValue } from '../../src/parse/known-values.js';
import { parseSource } from '../../src/parse/source.js';
import { keepValue, keptValue } from '../../src/parse/value-cache.js';
import { sameValue } from '../helpers.js';
import { freshCacheDirPerTest } from '../support/cache-dir.js';

const cacheDir = freshCacheDirPerTest();

/** A spec-like text over 1 MB and the value it reads as. */
function large(seed: string) {
  const tools = Array.from({ length: 2000 }, (_, i) => ({ name: `t${i}_${seed}`, description: 'x'.repeat(600), input: { type: 'object', properties: { n: { type: 'integer', minimum: -1.5 } } } }));
  const value = { tools };
  const text = `tools:\n${tools.map((t) => `  - name: ${t.name}\n    description: ${t.description}\n    input:\n      type: object\n      properties:\n        n:\n          type: integer\n          minimum: -1.5\n`).join('')}`;
  return { text, value };
}
const entries = () => readdirSync(join(cacheDir(), 'values')).filter((n) => n.endsWith('.json'));

describe('parse/value-cache', () => {
  it('gives back the value kept for exactly that text, a copy; another text, none', () => {
    const { text, value } = large('a');
    expect(text.length).toBeGreaterThan(1 << 20);
    keepValue(text, value);
    const kept = keptValue(text);
    expect(kept).not.toBe(value);
    expect(sameValue(kept, value)).toBe(true);
    expect(keptValue(`${text}# edited\n`)).toBeUndefined();
    // The loader takes it for that text (the reader's value and the kept one are the same).
    expect(sameValue(parseSource('s.yaml', new TextEncoder().encode(text)).source.value, value)).toBe(true);
  });

  it('keeps nothing for a small text: reading it is quicker than finding a file', () => {
    keepValue('tools: []\n', { tools: [] });
    expect(keptValue('tools: []\n')).toBeUndefined();
  });

  it('keeps the newest few only', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const { text, value } = large(seed);
      keepValue(text, value);
    }
    expect(entries().length).toBe(4);
    expect(keptValue(large('f').text)).toBeDefined();
  });

  it('knowValue says which values JSON gives back as themselves: not -0, NaN or Infinity', () => {
    try {
      expect(knowValue('a: 1\n', { a: 1 })).toBe(true);
      for (const n of [-0, Number.NaN, Number.POSITIVE_INFINITY]) expect(knowValue(`a: ${String(n)}\n`, { a: [n] })).toBe(false);
    } finally {
      forgetKnownValues();
    }
  });
});
