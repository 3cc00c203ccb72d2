// The seeded PRNG of the corpus samples (apis.mjs) and the fuzzers (test/support/prng.ts), in one place.
/** mulberry32: a small seeded PRNG (numbers in [0, 1)); test/support/prng.ts builds the fuzzers' on it. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
