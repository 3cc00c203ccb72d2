// fetch pools keep-alive connections, and servers close idle ones (Node's http server after 5 s). When
// this process was too busy to notice such a close, the next request is written to a dead socket and
// fails before any response: the server never saw it. A client cannot prove that, though (a server
// that crashed mid-request looks the same), so a request is replayed only when the caller's predicate
// says replaying is harmless — the rule of RFC 9110 §9.2.2 and RFC 9112 §9.3.1.

export type ConnectionRetry = 'safe' | 'always' | 'never';

// undici's codes for a connection that died before the response started.
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause: unknown = (error as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CONNECTION_LOST.has(code);
}

/** A fetch that sends a POSTed JSON-RPC message a second time, once, when the first attempt lost its connection and `mayReplay(message)` allows it. */
export function replayingFetch(base: typeof fetch, mayReplay: (message: unknown) => boolean): typeof fetch {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      if (!isConnectionLost(error) || init?.signal?.aborted === true) throw error;
      if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init?.body !== 'string') throw error;
      let message: unknown;
      try {
        message = JSON.parse(init.body);
      } catch {
        throw error;
      }
      if (!mayReplay(message)) throw error;
      return base(input, init);
    }
  };
}

/** What `'safe'` replays: requests and notifications other than tools/call, and tools/call of a tool whose annotations say it is read-only or idempotent. */
export function replayPolicy(policy: ConnectionRetry, annotationsOf: (tool: string) => { readonly readOnlyHint?: boolean | undefined; readonly idempotentHint?: boolean | undefined } | undefined): (message: unknown) => boolean {
  return (message) => {
    if (policy === 'never' || typeof message !== 'object' || message === null || Array.isArray(message)) return false;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    // Responses to server requests are not replayed: only messages that ask for something.
    if (typeof method !== 'string') return false;
    if (method !== 'tools/call' || policy === 'always') return true;
    const hints = typeof params?.name === 'string' ? annotationsOf(params.name) : undefined;
    return hints?.readOnlyHint === true || hints?.idempotentHint === true;
  };
}
