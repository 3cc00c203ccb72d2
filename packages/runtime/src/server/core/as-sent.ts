// A handler that wants the arguments as the client sent them, without the input schema's defaults filled
// in: the HTTP proxy forwards the call, and the upstream applies its own defaults (dev.to's `POST /api/pages`
// with `{}` went out as `{"template":"contained"}`): the caller's request goes as sent.
export const ARGS_AS_SENT: unique symbol = Symbol.for('mcpgen.argsAsSent');

export function argsAsSent<F extends (...args: never[]) => unknown>(handler: F): F {
  return Object.assign(handler, { [ARGS_AS_SENT]: true });
}

export function wantsArgsAsSent(handler: unknown): boolean {
  return typeof handler === 'function' && (handler as { [ARGS_AS_SENT]?: boolean })[ARGS_AS_SENT] === true;
}
