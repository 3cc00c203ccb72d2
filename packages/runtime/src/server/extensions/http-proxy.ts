// Handlers that forward a tool call to the HTTP operation it was imported from (`mcpgen import openapi`).
// The binding is plain data written by the importer; this file turns arguments into one upstream request
// and the upstream answer into a tool result. The MCP caller's own token is never forwarded: upstream
// credentials come from this process's environment (MCP authorization forbids token passthrough).
import { reply, toolError, type ToolReply } from '../core/replies.js';

export interface HttpParamBinding {
  /** The tool argument that holds the value. */
  readonly arg: string;
  /** The name on the wire (path template variable, query key, header or cookie name). */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
}

export interface HttpBinding {
  readonly method: string;
  /** The OpenAPI path template, e.g. `/pets/{petId}`. */
  readonly path: string;
  readonly params: readonly HttpParamBinding[];
  readonly body?: { readonly arg: string; readonly contentType: string };
  /** The tool has an output schema: JSON answers go to structuredContent. */
  readonly output: boolean;
}

/** Upstream credentials, each read from an environment variable at call time. */
export type HttpAuth =
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string; readonly env: string }
  | { readonly type: 'bearer'; readonly env: string }
  | { readonly type: 'basic'; readonly env: string };

export interface HttpProxyOptions {
  readonly baseUrl: string;
  readonly auth?: readonly HttpAuth[];
  readonly timeoutMs?: number;
  /** Answers larger than this are refused (default 8 MiB). */
  readonly maxBytes?: number;
  readonly fetch?: typeof fetch;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

type ProxyHandler = (args: Record<string, unknown>, ctx: { readonly signal: AbortSignal }) => Promise<unknown>;

/**
 * One handler per binding key (the handler method names of the generated server), typed as the server's
 * handlers interface `H`. A hand-written handler wins: spread this and override a method.
 */
export function httpProxy<H>(bindings: { readonly [K in keyof H]: HttpBinding }, options: HttpProxyOptions): H {
  const out: Record<string, ProxyHandler> = {};
  for (const [method, binding] of Object.entries(bindings as Record<string, HttpBinding>)) out[method] = (args, ctx) => callUpstream(binding, args, options, ctx.signal);
  // The arguments were validated against the input schema before a handler runs; the answer is checked
  // against the output schema after: the runtime's guarantees stand in for the static types here.
  return out as H;
}

export async function callUpstream(binding: HttpBinding, args: Record<string, unknown>, options: HttpProxyOptions, signal?: AbortSignal): Promise<unknown> {
  const request = buildRequest(binding, args, options);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(request.url, { method: binding.method.toUpperCase(), headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}), signal: both });
  } catch (e) {
    const why = timeout.aborted ? `timed out after ${options.timeoutMs ?? 30_000} ms` : (e as Error).message;
    return toolError(`upstream ${binding.method.toUpperCase()} ${binding.path} failed: ${why}`);
  }
  return answer(binding, response, options.maxBytes ?? 8 * 1024 * 1024);
}

interface BuiltRequest {
  readonly url: string;
  readonly headers: Headers;
  readonly body?: string;
}

export function buildRequest(binding: HttpBinding, args: Record<string, unknown>, options: HttpProxyOptions): BuiltRequest {
  let path = binding.path;
  const query = new URLSearchParams();
  const headers = new Headers();
  const cookies: string[] = [];
  for (const p of binding.params) {
    const value = args[p.arg];
    if (value === undefined) continue;
    // Path values are one segment: RFC 6570 simple expansion escapes everything outside unreserved.
    if (p.in === 'path') path = path.replaceAll(`{${p.name}}`, encodeURIComponent(scalar(value)));
    else if (p.in === 'query') for (const v of Array.isArray(value) ? value : [value]) query.append(p.name, scalar(v)); // form style, explode
    else if (p.in === 'header') headers.set(p.name, Array.isArray(value) ? value.map(scalar).join(',') : scalar(value));
    else cookies.push(`${p.name}=${encodeURIComponent(scalar(value))}`);
  }
  const env = options.env ?? process.env;
  // After the arguments: a configured credential replaces an argument of the same name (the model never chooses the key).
  for (const a of options.auth ?? []) applyAuth(a, env[a.env], headers, query, cookies);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  headers.set('accept', 'application/json, text/*;q=0.9, */*;q=0.5');
  let body: string | undefined;
  const value = binding.body === undefined ? undefined : args[binding.body.arg];
  if (binding.body !== undefined && value !== undefined) {
    headers.set('content-type', binding.body.contentType);
    body = binding.body.contentType === 'application/x-www-form-urlencoded' ? formBody(value) : JSON.stringify(value);
  }
  const qs = query.toString();
  return { url: `${options.baseUrl.replace(/\/+$/, '')}${path}${qs === '' ? '' : `?${qs}`}`, headers, ...(body !== undefined ? { body } : {}) };
}

function applyAuth(a: HttpAuth, secret: string | undefined, headers: Headers, query: URLSearchParams, cookies: string[]): void {
  if (secret === undefined || secret === '') return;
  if (a.type === 'bearer') headers.set('authorization', `Bearer ${secret}`);
  else if (a.type === 'basic') headers.set('authorization', `Basic ${Buffer.from(secret).toString('base64')}`);
  else if (a.in === 'header') headers.set(a.name, secret);
  else if (a.in === 'query') query.set(a.name, secret);
  else cookies.push(`${a.name}=${encodeURIComponent(secret)}`);
}

function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function formBody(value: unknown): string {
  const form = new URLSearchParams();
  if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) if (v !== undefined) form.append(k, scalar(v));
  return form.toString();
}

async function answer(binding: HttpBinding, response: Response, maxBytes: number): Promise<ToolReply<unknown>> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return toolError(`upstream answer is ${declared} bytes, over the ${maxBytes}-byte bound`);
  const text = await response.text();
  if (text.length > maxBytes) return toolError(`upstream answer is over the ${maxBytes}-byte bound`);
  const status = `${response.status} ${response.statusText}`.trim();
  if (!response.ok) {
    const retry = response.headers.get('retry-after');
    // A short summary the model can act on: the status and the start of the body.
    return toolError(`upstream ${binding.method.toUpperCase()} ${binding.path} answered ${status}${retry !== null ? ` (Retry-After: ${retry})` : ''}: ${text.slice(0, 500)}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (/[/+]json\b/i.test(type) && text !== '') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return reply({ content: [{ type: 'text', text }] });
    }
    if (binding.output && typeof data === 'object' && data !== null && !Array.isArray(data)) return reply({ structuredContent: data, content: [{ type: 'text', text }] });
  }
  return reply({ content: [{ type: 'text', text: text === '' ? status : text }] });
}
