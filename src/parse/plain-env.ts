// yaml's parser reads `process.env.LOG_TOKENS` once per token (its composer `LOG_STREAM` once per
// document), to print a debug trace. Node's process.env is a native interceptor: each read calls into
// C++ and makes a new string (about 0.15 µs), 80-100 ms of a 1.2 MB spec's parse. While yaml parses —
// synchronously, so nothing else runs meanwhile — process.env is a plain copy of itself, with the same
// variables (LOG_TOKENS still works), and the real one is back as soon as the parse ends or throws.
// The copy has a price of its own (60 µs for 35 variables, more in a larger environment): a text
// shorter than PLAIN_ENV_MIN_CHARS has too few tokens to win it back, and parses with the real one.

/** From this size on a text's tokens read process.env often enough to pay for the copy. */
export const PLAIN_ENV_MIN_CHARS = 8 * 1024;

/** `parse()` with process.env a plain object of the same variables (for a text of `chars` characters: from PLAIN_ENV_MIN_CHARS on). */
export function withPlainEnv<T>(parse: () => T, chars = Infinity): T {
  if (chars < PLAIN_ENV_MIN_CHARS) return parse();
  const env = process.env;
  process.env = { ...env };
  try {
    return parse();
  } finally {
    process.env = env;
  }
}
