// yaml's parser reads `process.env.LOG_TOKENS` once per token (its composer `LOG_STREAM` once per
// document), to print a debug trace. Node's process.env is a native interceptor: each read calls into
// C++ and makes a new string (about 0.15 µs), 80-100 ms of a 1.2 MB spec's parse. While yaml parses —
// synchronously, so nothing else runs meanwhile — process.env is a plain copy of itself, with the same
// variables (LOG_TOKENS still works), and the real one is back as soon as the parse ends or throws.

/** `parse()` with process.env a plain object of the same variables. */
export function withPlainEnv<T>(parse: () => T): T {
  const env = process.env;
  process.env = { ...env };
  try {
    return parse();
  } finally {
    process.env = env;
  }
}
