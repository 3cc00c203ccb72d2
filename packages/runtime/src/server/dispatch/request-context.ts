// What every MCP area needs around a handler call: the RequestContext handlers see, who the caller is,
// and MRTR `requestState` (opened before the handler runs, sealed on the reply).
import { inputRequired, type ServerContext } from '@modelcontextprotocol/server';
import { principalKeyOf, principalOf } from '../auth/auth.js';
import type { ChangeNotifier, RequestContext } from '../core/context.js';
import { inputRequiredReply, type InputRequiredReply } from '../core/replies.js';
import { checkRequestStateTtl, processLocalKeyRing, RequestStateKeyRing, type RequestStateKey } from '../scale/request-state.js';

/** `signal` as a function: read when the handler reads ctx.signal (see tools.ts callTool). */
export function requestContext(ctx: ServerContext, signal: AbortSignal | (() => AbortSignal), notify: ChangeNotifier, requestState: string | undefined): RequestContext {
  const http = (ctx as { http?: { req?: Request } }).http;
  // The fast path has no Web Request until a handler asks for one (it is built on first read).
  const lazy = http !== undefined && typeof Object.getOwnPropertyDescriptor(http, 'req')?.get === 'function';
  const req = lazy ? undefined : http?.req;
  const auth = principalOf(ctx.http?.authInfo);
  const context: RequestContext = {
    get signal(): AbortSignal {
      return typeof signal === 'function' ? signal() : signal;
    },
    requestId: ctx.mcpReq.id,
    meta: (ctx.mcpReq._meta ?? {}) as Record<string, unknown>,
    ...(req !== undefined ? { httpRequest: req } : {}),
    // The SDK types the envelope as {}: the key is the spec's, the value a ClientCapabilities object.
    clientCapabilities: ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<string, unknown>,
    inputResponses: ctx.mcpReq.inputResponses,
    requestState,
    inputRequired: inputRequiredReply,
    notify,
    ...(auth !== undefined ? { auth } : {}),
  };
  if (lazy) Object.defineProperty(context, 'httpRequest', { enumerable: true, configurable: true, get: () => http!.req });
  return context;
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
  /** The echoed state opened for the handler (refused before it runs when it fails). */
  readonly openState: (ctx: ServerContext, binding: Binding) => Promise<string | undefined>;
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
      return wire === undefined ? Promise.resolve(undefined) : ring().open(wire, bound(binding), ctx);
    },
    inputRequiredResult: async (out, binding) =>
      inputRequired({ inputRequests: out.inputRequests as never, ...(out.requestState !== undefined ? { requestState: await ring().seal(out.requestState, bound(binding)) } : {}) }),
  };
}
