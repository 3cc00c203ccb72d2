// Issue 47: the schema rules' caches by schema text are bounded (common/bounded-map.ts), so a long
// editing session in `mcpgen lsp` or `generate --watch` keeps the most recently used outcomes only.
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/common/bounded-map.js';

describe('BoundedMap', () => {
  it('keeps at most its limit, forgetting the least recently used', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) map.set(k, v);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('d', 4);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
    for (let i = 0; i < 100; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(map.get('k99')).toBe(99);
    expect(map.get('a')).toBeUndefined();
  });

  it('setting a kept key again does not grow it', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('a', 2).set('b', 3);
    expect([...map]).toEqual([['a', 2], ['b', 3]]);
  });
});
