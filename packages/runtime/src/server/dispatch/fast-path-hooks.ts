// What the server side (create-server.ts) offers the HTTP fast path (fast-path.ts), and the hand-over
// of a result the fast path computed but leaves to the SDK to encode.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ServerDefinition, ToolSpec } from '../core/definition.js';
import { requestBuiltOnRead } from './request-context.js';

export interface FastServerHooks {
  /** The serverInfo the SDK stamps into every result's `_meta`. */
  readonly serverInfo: ServerDefinition['info'];
  /** Whether the fast path may run this tool (see fastEligibleTool). */
  eligible(name: string): boolean;
  /** Run a tool as the SDK's tools/call handler would, minus the SDK's 2026 projection (see fast-path.ts). */
  callTool(name: string, args: unknown, ctx: ServerContext): Promise<unknown>;
  /** Lists whose answer changes per caller and over time (dynamic discovery: tools/list): never replayed. */
  readonly changingLists?: ReadonlySet<string>;
}

/**
 * Per tool: MRTR elicitation (sealed requestState, answers to validate against client capabilities) and
 * task-capable tools (a `task` setting, or `execution` in the definition) always go through the SDK.
 */
export function fastEligibleTool(spec: ToolSpec): boolean {
  return Object.keys(spec.elicit).length === 0 && spec.task === undefined && (spec.definition as { execution?: unknown }).execution === undefined;
}

export type Precomputed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

const precomputed = new WeakMap<Request, Precomputed>();

/** A tool's outcome the fast path computed for this Request; the SDK's tools/call handler returns it. */
export function stashPrecomputed(request: Request, outcome: Precomputed): void {
  precomputed.set(request, outcome);
}

/** The stashed outcome for the request this context serves, once (a thrown error is thrown again). */
export function takePrecomputed(ctx: ServerContext): unknown {
  const http = (ctx as { http?: { req?: Request } }).http;
  const req = http !== undefined && !requestBuiltOnRead(http) ? http.req : undefined;
  if (req === undefined) return undefined;
  const outcome = precomputed.get(req);
  if (outcome === undefined) return undefined;
  precomputed.delete(req);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
