/** mulberry32: a small seeded PRNG, so every fuzz run with the same seed does the same things. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const string = (max = 12) => {
    const alphabet = 'abcXYZ019 _-./:?#[]@!$&\'()*+,;=%"\\\n\t\u00e9\u4e16\u{1F600}\u202e\u2028\u0000`{}<>';
    return Array.from({ length: int(max) + 1 }, () => pick([...alphabet])).join('');
  };
  return { next, int, pick, string };
}
export type Prng = ReturnType<typeof prng>;
