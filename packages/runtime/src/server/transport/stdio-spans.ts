// Server spans over stdio for what the SDK answers itself (initialize, ping, server/discover,
// subscriptions/listen) and for client notifications: no runtime handler runs around them, so the wire opens
// the span when the line is delivered and ends it when its answer is written — the JSON-RPC response with
// its id, or for a listen the `notifications/subscriptions/acknowledged` stamped with it (its stream is
// open; the result comes only at teardown); a notification's once delivered. The HTTP face does the same
// around the SDK's Response (dispatch/tracing.ts).
import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { isProtocolMessage, type TraceProtocol } from '../dispatch/tracing.js';

type Id = string | number;
type Settle = { resolve(): void; reject(error: Error): void };

/** A JSON-RPC error as the span's failure: Telemetry.serve reads its `code` into error.type. */
class AnsweredError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export class StdioProtocolSpans {
  readonly #trace: TraceProtocol;
  /** Spans open, by the JSON text of their request id. */
  readonly #open = new Map<string, Settle>();

  constructor(trace: TraceProtocol) {
    this.#trace = trace;
  }

  /** Hands `message` to `deliver`, inside its span when it is a request of PROTOCOL_METHODS or a notification. */
  receive(message: JSONRPCMessage, deliver: (message: JSONRPCMessage) => void): void {
    const hasId = 'id' in message;
    if (!('method' in message) || !isProtocolMessage(message.method, hasId)) {
      deliver(message);
      return;
    }
    // A notification has no answer: its span ends once the SDK has taken it (its handlers run synchronously).
    if (!hasId) {
      this.#trace(message, undefined, async () => deliver(message)).catch(() => {});
      return;
    }
    const key = JSON.stringify(message.id);
    const answered = () =>
      new Promise<void>((resolve, reject) => {
        this.#open.set(key, { resolve, reject });
        deliver(message);
      });
    // The span's outcome is only recorded: the answer itself went out through the wire.
    this.#trace(message, undefined, answered).catch(() => {});
  }

  /** Ends the span `message` answers, if one is open. */
  sent(message: JSONRPCMessage): void {
    if (this.#open.size === 0) return;
    const id = answeredId(message);
    if (id === undefined) return;
    const key = JSON.stringify(id);
    const open = this.#open.get(key);
    if (open === undefined) return;
    this.#open.delete(key);
    const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
    if (error === undefined) open.resolve();
    else open.reject(new AnsweredError(typeof error.message === 'string' ? error.message : 'error', typeof error.code === 'number' ? error.code : -32603));
  }

  /** The connection closed: spans still open end (nothing will answer them). */
  close(): void {
    for (const open of this.#open.values()) open.resolve();
    this.#open.clear();
  }
}

/** The request id a message answers: a response's id, or the subscription a listen acknowledgement opens. */
function answeredId(message: JSONRPCMessage): Id | undefined {
  if ('id' in message && !('method' in message)) return message.id as Id;
  if ('method' in message && message.method === 'notifications/subscriptions/acknowledged') {
    const id = (message.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  }
  return undefined;
}
