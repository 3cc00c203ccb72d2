// What every MCP area needs around a handler call: the RequestContext handlers see, who the caller is,
// and MRTR `requestState` (opened before the handler runs, sealed on the reply).
import { inputRequired, type ServerContext } from '@modelcontextprotocol/server';
import { principalKeyOf, principalOf } from '../auth/auth.js';
import { CANCEL, type Cancel, type Cancellable } from '../core/cancel.js';
import type { ChangeNotifier, RequestContext } from '../core/context.js';
import type { AuthPrincipal } from '../core/principal.js';
import { inputRequiredReply, type InputRequiredReply } from '../core/replies.js';
import { checkRequestStateTtl, processLocalKeyRing, RequestStateKeyRing, type RequestStateKey } from '../scale/request-state.js';

/** `signal` as a function: read when the handler reads ctx.signal (see tools.ts callTool). */
/** `cancel`: where the request's Cancel comes from without its signal (tools.ts's abort; core/cancel.ts). */
export function requestContext(ctx: ServerContext, signal: AbortSignal | (() => AbortSignal), notify: ChangeNotifier, requestState: string | undefined, cancel?: Cancellable): RequestContext {
  return new HandlerContext(ctx, signal, notify, requestState, cancel);
}

/**
 * Whether `http.req` is made when first read (the fast path's Web Request, an own or a prototype getter):
 * code that only wants it if it exists must not read it then.
 */
export function requestBuiltOnRead(http: object): boolean {
  for (let o: object | null = http; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, 'req');
    if (d !== undefined) return typeof d.get === 'function';
  }
  return false;
}

/**
 * The context handlers see. A class: its `signal` and `httpRequest` are getters on the prototype, where an
 * object literal's getter would keep the request alive past young-generation GCs (docs/layout.md,
 * "Per-request objects"). Code that copies a context must copy those two by name (tool-tasks.ts).
 */
class HandlerContext implements RequestContext {
  readonly requestId: string | number;
  readonly meta: Record<string, unknown>;
  readonly clientCapabilities: Record<string, unknown>;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly inputRequired = inputRequiredReply;
  declare readonly auth?: AuthPrincipal;
  readonly #http: { req?: Request } | undefined;
  readonly #signal: AbortSignal | (() => AbortSignal);
  readonly #cancel: Cancellable | undefined;
  constructor(ctx: ServerContext, signal: AbortSignal | (() => AbortSignal), readonly notify: ChangeNotifier, readonly requestState: string | undefined, cancel: Cancellable | undefined) {
    this.#signal = signal;
    this.#cancel = cancel;
    this.#http = (ctx as { http?: { req?: Request } }).http;
    this.requestId = ctx.mcpReq.id;
    this.meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
    // The SDK types the envelope as {}: the key is the spec's, the value a ClientCapabilities object.
    this.clientCapabilities = ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<string, unknown>;
    this.inputResponses = ctx.mcpReq.inputResponses;
    const auth = principalOf(ctx.http?.authInfo);
    if (auth !== undefined) this.auth = auth;
  }
  get signal(): AbortSignal {
    const signal = this.#signal;
    return typeof signal === 'function' ? signal() : signal;
  }
  /** The request's cancellation without its signal, where the transport gives one (the proxy listens here). */
  [CANCEL](): Cancel | undefined {
    return this.#cancel?.[CANCEL]?.();
  }
  /** The fast path's Web Request is built here, on first read. */
  get httpRequest(): Request | undefined {
    return this.#http?.req;
  }
}

/** Who a requestState is bound to (MR6: state that influences authorization binds the principal). */
export function principalKey(ctx: ServerContext): string {
  return principalKeyOf(principalOf(ctx.http?.authInfo));
}

/** Without a verify hook the SDK's accessor returns the raw wire string (attacker-controlled: MR6, opened by the ring). */
function readRequestState(ctx: ServerContext): string | undefined {
  const value = ctx.mcpReq.requestState<unknown>();
  return typeof value === 'string' ? value : undefined;
}

/** `binding` as a function: tools/call hashes it only when a state is opened or sealed. */
export type Binding = string | (() => string);

export interface RequestStateSeal {
  /** The echoed state opened for the handler (refused before it runs when it fails); undefined, not a promise, when none was echoed. */
  readonly openState: (ctx: ServerContext, binding: Binding) => Promise<string | undefined> | undefined;
  /** The handler's InputRequiredReply as the wire result, its requestState sealed. */
  readonly inputRequiredResult: (out: InputRequiredReply, binding: Binding) => Promise<ReturnType<typeof inputRequired>>;
}

export function requestStateSeal(keys: RequestStateKeyRing | readonly RequestStateKey[] | undefined, ttlSeconds: number | undefined): RequestStateSeal {
  const given = keys instanceof RequestStateKeyRing ? keys : keys !== undefined ? new RequestStateKeyRing(keys, ttlSeconds) : undefined;
  // Checked now, not on the first MRTR call: a bad TTL must stop the server at start (issue 25 item 11).
  if (given === undefined && ttlSeconds !== undefined) checkRequestStateTtl(ttlSeconds);
  // The process-local key is drawn on first use: workerd refuses random values at a module's top level.
  let local: RequestStateKeyRing | undefined;
  const ring = (): RequestStateKeyRing => given ?? (local ??= processLocalKeyRing(ttlSeconds));
  const bound = (binding: Binding): string => (typeof binding === 'string' ? binding : binding());
  return {
    openState: (ctx, binding) => {
      const wire = readRequestState(ctx);
      return wire === undefined ? undefined : ring().open(wire, bound(binding), ctx);
    },
    inputRequiredResult: async (out, binding) =>
      inputRequired({ inputRequests: out.inputRequests as never, ...(out.requestState !== undefined ? { requestState: await ring().seal(out.requestState, bound(binding)) } : {}) }),
  };
}
