// Rate limits on the HTTP faces (ops/rate-limit.ts counts): one count per JSON-RPC request, whichever path
// serves it. The node:http face hands the client's address along (a Web Request has none), and a request the
// fast path already counted is marked, so the SDK path it may be handed to does not count it twice.
import { callerKey, rateLimitedError, type RateLimiter } from '../ops/rate-limit.js';
import type { ObserveRefusal } from '../dispatch/tracing.js';

const addresses = new WeakMap<Request, string>();
const counted = new WeakSet<Request>();

/** The node:http face: the socket's remote address of this Request. */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) addresses.set(request, address);
}

export function clientAddressOf(request: Request): string | undefined {
  return addresses.get(request);
}

/** The fast path counted this request already. */
export function markCounted(request: Request): void {
  counted.add(request);
}

export function wasCounted(request: Request): boolean {
  return counted.has(request);
}

/** The request's method and, for tools/call, its tool; undefined for what is not counted (notifications, responses). */
export function countedRequest(body: unknown): { id: string | number; tool: string | undefined } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const msg = body as { id?: unknown; method?: unknown; params?: { name?: unknown } };
  if (typeof msg.method !== 'string' || (typeof msg.id !== 'string' && typeof msg.id !== 'number')) return undefined;
  return { id: msg.id, tool: msg.method === 'tools/call' && typeof msg.params?.name === 'string' ? msg.params.name : undefined };
}

/** What a refusal is observed with (its span and access-log line): the factory's observer and the request's headers. */
export interface RefusalWatch {
  readonly observe: ObserveRefusal;
  readonly header: (name: string) => string | undefined;
}

/** The watch of a face whose factory observes refusals (telemetry or the access log on), else undefined. */
export function refusalWatch(observe: ObserveRefusal | undefined, header: (name: string) => string | undefined): RefusalWatch | undefined {
  return observe === undefined ? undefined : { observe, header };
}

/** 429 with Retry-After and the JSON-RPC error, or undefined to serve the request. */
export async function rateLimitAnswer(limiter: RateLimiter, body: unknown, principalKey: string, address: string | undefined, watch?: RefusalWatch): Promise<Response | undefined> {
  const request = countedRequest(body);
  if (request === undefined) return undefined;
  const startedAt = performance.now();
  const refused = await limiter.check(callerKey(principalKey, address), request.tool);
  if (refused === undefined) return undefined;
  const error = rateLimitedError(refused);
  await watch?.observe({ body, header: watch.header, principalKey, startedAt, error });
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: request.id, error }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(refused.retryAfterSeconds) },
  });
}
