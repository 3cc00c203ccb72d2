// Issue 47: the schema rules' caches by schema text are bounded (common/bounded-map.ts), so a long
// editing session in `mcpgen lsp` or `generate --watch` keeps the most recently used outcomes only.
import { describe, expect, it } from 'vitest';
import { boundedMap } from '../../src/common/bounded-map.js';

describe('boundedMap', () => {
  it('keeps at most its limit, forgetting the least recently used', () => {
    const map = boundedMap<string, number>(3);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) map.set(k, v);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('d', 4);
    map.set('e', 5);
    map.set('f', 6);
    expect(map.get('a')).toBe(1);
    for (let i = 0; i < 100; i++) map.set(`k${i}`, i);
    expect(map.size).toBeLessThanOrEqual(3);
    expect(map.get('k99')).toBe(99);
    expect(map.get('a')).toBeUndefined();
  });

  it('keeps null outcomes (a schema that compiles to no check)', () => {
    const map = boundedMap<string, null>(2);
    map.set('a', null);
    expect(map.get('a')).toBeNull();
    expect(map.has('a')).toBe(true);
  });
});
