// Handlers that forward a tool call to the HTTP operation it was imported from (`mcpgen import openapi`).
// The binding is plain data written by the importer; this file runs the attempts of one call (retries,
// OAuth token refresh); http-request builds the request and http-answer maps the answer. The MCP
// caller's own token is never forwarded: upstream credentials come from this process's environment or
// from the `upstreamToken` hook (MCP authorization forbids token passthrough; RFC 8693 exchange is the way).
import { argsAsSent } from '../core/as-sent.js';
import { cancelOf } from '../core/cancel.js';
import { toolError, type ToolReply } from '../core/replies.js';
import { readBounded, toToolResult, type Received } from './http-answer.js';
import { InvalidArgument } from './http-arguments.js';
import { ClientCredentials } from './http-oauth.js';
import { nodeSend, nodeTransportAvailable } from './http-node-send.js';
import { isRedirect, MAX_REDIRECTS, nextHop, type Hop } from './http-redirect.js';
import { operationOf, requestParts, type Operation, type RequestParts, type Secrets } from './http-request.js';
import { attemptMs, budgetOf, isIdempotent, retryableStatus, retryDelay, sleep } from './http-retry.js';
import type { HttpAuth, HttpBinding, HttpProxyOptions, ProxyCallContext, UpstreamTokenRequest } from './http-types.js';

export { buildRequest } from './http-request.js';
export type { HttpAuth, HttpBinding, HttpParamBinding, HttpProxyOptions, ProxyCallContext, UpstreamTokenRequest } from './http-types.js';

type ProxyHandler = (args: Record<string, unknown>, ctx: ProxyCallContext) => Promise<unknown>;

/**
 * One handler per binding key (the handler method names of the generated server), typed as the server's
 * handlers interface `H`. A hand-written handler wins: spread this and override a method.
 */
export function httpProxy<H>(bindings: { readonly [K in keyof H]: HttpBinding }, options: HttpProxyOptions): H {
  const out: Record<string, ProxyHandler> = {};
  const tokens = new ClientCredentials(options.fetch);
  for (const [method, binding] of Object.entries(bindings as Record<string, HttpBinding>)) {
    const op = operationOf(binding, options);
    // The arguments as the client sent them: the upstream applies its own defaults.
    out[method] = argsAsSent((args: Record<string, unknown>, ctx: ProxyCallContext) => callOperation(op, args, contextOf(ctx), tokens));
  }
  // The arguments were validated against the input schema before a handler runs; the answer is checked
  // against the output schema after: the runtime's guarantees stand in for the static types here.
  return out as H;
}

const sharedTokens = new ClientCredentials();

export async function callUpstream(binding: HttpBinding, args: Record<string, unknown>, options: HttpProxyOptions, ctx?: ProxyCallContext | AbortSignal, tokens = sharedTokens): Promise<ToolReply<unknown>> {
  return callOperation(operationOf(binding, options), args, contextOf(ctx), tokens);
}

function contextOf(ctx: ProxyCallContext | AbortSignal | undefined): ProxyCallContext {
  return ctx === undefined ? {} : ctx instanceof AbortSignal ? { signal: ctx } : ctx;
}

async function callOperation(op: Operation, args: Record<string, unknown>, call: ProxyCallContext, tokens: ClientCredentials): Promise<ToolReply<unknown>> {
  const { binding, options, method } = op;
  // A spec without `upstream.baseUrl` leaves it to <SERVER>_BASE_URL: say so rather than fail on a relative URL.
  if (op.base === undefined) return toolError(`upstream ${method} ${binding.path}: no upstream base URL is configured (set the server's <SERVER>_BASE_URL)`);
  let refreshed = false;
  const deadline = Date.now() + budgetOf(options);
  for (let attempt = 0; ; attempt++) {
    let secrets: Secrets | undefined;
    // Without secrets to fetch each credential is read from `env` as the request is built, without a turn.
    if (op.fetchesSecrets) {
      try {
        secrets = await resolveSecrets(op, call, tokens, refreshed && attempt === 0);
      } catch (e) {
        return toolError(`upstream credentials for ${method} ${binding.path} could not be obtained: ${(e as Error).message}`);
      }
    }
    let request: RequestParts;
    try {
      request = requestParts(op, args, secrets);
    } catch (e) {
      if (!(e instanceof InvalidArgument)) throw e;
      return toolError(`invalid argument ${e.arg} for ${method} ${binding.path}: ${e.message}`);
    }
    const got = await send(method, request, options, call, attemptMs(options, deadline));
    if ('response' in got && got.response.status === 401 && !refreshed && refreshable(options)) {
      // A 401 means the request was not acted on: one more try with a fresh token is safe for any method.
      refreshed = true;
      for (const a of options.auth ?? []) if (a.type === 'oauth2') tokens.forget(a, options.env ?? process.env);
      attempt = -1;
      continue;
    }
    const failedAgain = 'failed' in got ? got.retryable : retryableStatus(got.response.status);
    const wait = failedAgain && isIdempotent(method) && call.signal?.aborted !== true ? retryDelay(options, attempt, 'response' in got ? got.response.headers.get('retry-after') : null, deadline) : undefined;
    if (wait === undefined) return 'failed' in got ? toolError(`upstream ${method} ${binding.path} failed: ${got.failed}`) : toToolResult(binding, request.url, got.response, got.bytes);
    await sleep(wait, call.signal);
  }
}

function refreshable(options: HttpProxyOptions): boolean {
  return options.upstreamToken !== undefined || (options.auth ?? []).some((a) => a.type === 'oauth2');
}

type Sent = Exclude<Received, { failed: string }> | { readonly failed: string; readonly retryable: boolean };

/**
 * One attempt: a timeout per attempt; a connection error or timeout may be retried, a cancellation not.
 * On Node without a `fetch` option it goes over node:http (http-node-send.ts: the same answer, cheaper).
 */
function send(method: string, parts: RequestParts, options: HttpProxyOptions, call: ProxyCallContext, ms: number): Promise<Sent> {
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  // node:http hears a cancellation without the signal where the fast path gives one (core/cancel.ts).
  // Its promise as it is: an async function returning a promise would add two turns to every call.
  if (options.fetch === undefined && nodeTransportAvailable()) return nodeSend(method, parts, maxBytes, ms, cancelOf(call));
  return fetchSend(method, parts, options, call.signal, ms, maxBytes);
}

/** fetch with `redirect: 'manual'`: the proxy follows redirects itself, to empty every credential place (http-redirect.ts). */
async function fetchSend(method: string, parts: RequestParts, options: HttpProxyOptions, signal: AbortSignal | undefined, ms: number, maxBytes: number): Promise<Sent> {
  const timeout = AbortSignal.timeout(ms);
  const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  const send = options.fetch ?? fetch;
  let hop: Hop<RequestParts['body']> | undefined;
  try {
    for (let hops = 0; ; hops++) {
      const url = hop?.url ?? parts.url;
      const body = hop === undefined ? parts.body : hop.body;
      const response = await send(url, { method: hop?.method ?? method, headers: new Headers(hop?.headers ?? parts.headers), ...(body !== undefined ? { body } : {}), redirect: 'manual', signal: both });
      const location = isRedirect(response.status) ? response.headers.get('location') : null;
      if (location === null) {
        const read = await readBounded(response, maxBytes);
        return 'failed' in read ? { failed: read.failed, retryable: false } : read;
      }
      await response.body?.cancel();
      if (hops === MAX_REDIRECTS) return { failed: 'redirect count exceeded', retryable: false };
      const from = hop ?? { method, url: new URL(parts.url), headers: parts.headers, ...(parts.body !== undefined ? { body: parts.body } : {}) };
      hop = nextHop(from, response.status, new URL(location, from.url), parts.credentials);
    }
  } catch (e) {
    if (timeout.aborted) return { failed: `timed out after ${ms} ms`, retryable: true };
    const cause = (e as { cause?: { code?: unknown } }).cause;
    return { failed: `${(e as Error).message}${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}`, retryable: signal?.aborted !== true };
  }
}

/** The hook's token where it gives one, else client credentials for OAuth 2 schemes; other schemes read `env` when built. */
async function resolveSecrets({ binding, options, auth }: Operation, call: ProxyCallContext, tokens: ClientCredentials, refresh: boolean): Promise<Secrets> {
  const out = new Map<HttpAuth, string>();
  const env = options.env ?? process.env;
  for (const scheme of auth) {
    let secret: string | undefined;
    if (options.upstreamToken !== undefined && (scheme.type === 'bearer' || scheme.type === 'oauth2')) {
      secret = await options.upstreamToken({ scheme, operation: { method: binding.method.toUpperCase(), path: binding.path }, caller: callerOf(call), refresh });
    }
    if (secret === undefined && scheme.type === 'oauth2') secret = await tokens.token(scheme, env, call.signal);
    if (secret !== undefined) out.set(scheme, secret);
  }
  return out;
}

function callerOf(call: ProxyCallContext): UpstreamTokenRequest['caller'] {
  const header = call.httpRequest?.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  return { ...(call.auth !== undefined ? { principal: call.auth } : {}), ...(token !== undefined ? { token } : {}) };
}
