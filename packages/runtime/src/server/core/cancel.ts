// Hearing that a request was cancelled (its client went away) without making its AbortSignal. The fast
// path makes a request's signal only when something reads it: an AbortSignal and its listener cost ~7 µs a
// call at concurrency 1, and a proxied call only needs to stop its upstream request if the client goes.
// Runtime-internal: handlers see `ctx.signal`; the proxy asks a context for its Cancel by a symbol.

export interface Cancel {
  readonly cancelled: boolean;
  /** Called once, synchronously, when the request is cancelled (not if it already was: check `cancelled`). */
  listen(listener: () => void): void;
  unlisten(listener: () => void): void;
}

/** The method a context (or what it is made from) answers its request's Cancel by, where it has one. */
export const CANCEL: unique symbol = Symbol('mcpgen.cancel');

export interface Cancellable {
  [CANCEL]?(): Cancel | undefined;
}

/** The context's own Cancel, else one over its signal (undefined when it has neither). */
export function cancelOf(ctx: { readonly signal?: AbortSignal | undefined }): Cancel | undefined {
  const own = (ctx as Cancellable)[CANCEL]?.();
  if (own !== undefined) return own;
  const signal = ctx.signal;
  return signal === undefined ? undefined : new SignalCancel(signal);
}

class SignalCancel implements Cancel {
  constructor(private readonly signal: AbortSignal) {}
  get cancelled(): boolean {
    return this.signal.aborted;
  }
  listen(listener: () => void): void {
    this.signal.addEventListener('abort', listener, { once: true });
  }
  unlisten(listener: () => void): void {
    this.signal.removeEventListener('abort', listener);
  }
}

/**
 * A request's cancellation: its AbortController (whose signal is made when first read, or by the abort)
 * and listeners that need no signal.
 */
export class RequestCancel implements Cancel {
  readonly controller = new AbortController();
  cancelled = false;
  #one: (() => void) | undefined;
  #more: (() => void)[] | undefined;

  cancel(reason: Error): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller.abort(reason);
    const one = this.#one;
    const more = this.#more;
    this.#one = this.#more = undefined;
    one?.();
    if (more !== undefined) for (const l of more) l();
  }

  listen(listener: () => void): void {
    if (this.cancelled) return;
    if (this.#one === undefined) this.#one = listener;
    else (this.#more ??= []).push(listener);
  }

  unlisten(listener: () => void): void {
    if (this.#one === listener) this.#one = undefined;
    else if (this.#more !== undefined) {
      const i = this.#more.indexOf(listener);
      if (i >= 0) this.#more.splice(i, 1);
    }
  }
}
