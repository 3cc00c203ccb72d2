import { mulberry32 } from '../../scripts/corpus/mulberry32.mjs';

/** mulberry32: a small seeded PRNG, so every fuzz run with the same seed does the same things. */
export function prng(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const string = (max = 12) => {
    const alphabet = 'abcXYZ019 _-./:?#[]@!$&\'()*+,;=%"\\\n\t\u00e9\u4e16\u{1F600}\u202e\u2028\u0000`{}<>';
    return Array.from({ length: int(max) + 1 }, () => pick([...alphabet])).join('');
  };
  return { next, int, pick, string };
}
export type Prng = ReturnType<typeof prng>;
