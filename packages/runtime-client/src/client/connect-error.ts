// Why a connect failed, said so a person can act on it. The SDK's negotiation probe reports a dead port as
// "Version negotiation probe failed: fetch failed": no URL, and the reason (ECONNREFUSED, ENOTFOUND, a TLS
// error…) sits two `cause`s down. The client knows the URL; the cause chain knows the rest.

/** The messages (and system error codes) along an error's `cause` chain, outermost first, deduplicated. */
export function causeChain(error: unknown): string[] {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let e: unknown = error; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { message, code } = e as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : String(e);
    const withCode = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
    if (!parts.some((p) => p.includes(withCode))) parts.push(withCode);
    if (typeof e !== 'object') break;
  }
  return parts;
}

/**
 * Whether the server was never reached (refused, unresolvable, reset, TLS): undici's "fetch failed" or a
 * system error code along the chain. Answers from the server (401, a bad reply) keep their own error type.
 */
export function isUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; typeof e === 'object' && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { message, code } = e as { message?: unknown; code?: unknown };
    if (message === 'fetch failed' || (typeof code === 'string' && /^E[A-Z]+$/.test(code))) return true;
  }
  return false;
}

/** The error a failed HTTP connect rethrows: names the URL and every cause; the original stays as `cause`. */
export function connectError(url: string | URL, error: unknown): Error {
  return new Error(`cannot connect to ${String(url)}: ${causeChain(error).join(': ')}`, { cause: error });
}
