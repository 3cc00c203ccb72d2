// A server's rate-limit refusal (HTTP 429 with Retry-After and the JSON-RPC error 429, or over stdio the
// JSON-RPC error alone) as one typed error. Over HTTP the SDK's transport throws a generic HTTP error whose
// message carries the raw body; the tap below turns it into RateLimitError before the request sees it.
import { ProtocolError, type Transport } from '@modelcontextprotocol/client';

/** The JSON-RPC code of mcpgen's rate-limit refusal (the runtime's RATE_LIMITED_CODE). */
export const RATE_LIMITED = 429;

/** The server refused the request for a rate limit: come back after `retryAfter` seconds. */
export class RateLimitError extends ProtocolError {
  override readonly name = 'RateLimitError';
  constructor(
    message: string,
    /** Seconds to wait before trying again (the server's Retry-After). */
    readonly retryAfter: number,
    /** Which limit refused it: `server` (every request of this caller) or `tool` (this tool's own). */
    readonly scope: string | undefined,
  ) {
    super(RATE_LIMITED, message, { retryAfterSeconds: retryAfter, ...(scope !== undefined ? { scope } : {}) });
  }
}

/** The RateLimitError an SDK error stands for (an HTTP 429, or the JSON-RPC error 429), or undefined. */
export function rateLimitErrorOf(error: unknown): RateLimitError | undefined {
  if (error instanceof RateLimitError) return error;
  if (error instanceof ProtocolError && error.code === RATE_LIMITED) return fromJsonRpc({ message: error.message, data: error.data });
  const data = (error as { data?: { status?: unknown; text?: unknown } } | null)?.data;
  if (data?.status !== 429 || typeof data.text !== 'string') return undefined;
  try {
    const body = JSON.parse(data.text) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    return body.error?.code === RATE_LIMITED ? fromJsonRpc(body.error) : undefined;
  } catch {
    return undefined;
  }
}

function fromJsonRpc(error: { message?: unknown; data?: unknown }): RateLimitError {
  const data = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as { retryAfterSeconds?: unknown; scope?: unknown };
  const retryAfter = typeof data.retryAfterSeconds === 'number' && data.retryAfterSeconds > 0 ? data.retryAfterSeconds : 1;
  return new RateLimitError(typeof error.message === 'string' ? error.message : `Rate limit exceeded: retry after ${retryAfter} s`, retryAfter, typeof data.scope === 'string' ? data.scope : undefined);
}

/** Every request this transport sends rejects with RateLimitError when the server answers 429. */
export function interceptRateLimits(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(message, options).catch((e: unknown) => Promise.reject(rateLimitErrorOf(e) ?? e));
}
