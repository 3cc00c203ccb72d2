// The upstream request of one proxied tool call: path template, query, headers, cookies, credentials
// and the body in the operation's media type (JSON, form, multipart, text or raw bytes).
import { appendQuery } from './http-query.js';
import type { HttpAuth, HttpBinding, HttpProxyOptions } from './http-types.js';

export interface BuiltRequest {
  readonly url: string;
  readonly headers: Headers;
  /** Strings, bytes and FormData can be sent again as they are: a retry rebuilds nothing. */
  readonly body?: string | Uint8Array | FormData;
}

/** The secret each configured scheme sends, resolved before the request is built (OAuth tokens are fetched). */
export type Secrets = ReadonlyMap<HttpAuth, string>;

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;
/** Media types whose bodies are text, sent and answered as strings (the answer side reads this too). */
export const TEXT_TYPE = /^(?:text\/|application\/(?:[\w.+-]*\+)?xml\b|application\/(?:javascript|yaml|x-yaml|x-ndjson|graphql)\b)/i;

export function buildRequest(binding: HttpBinding, args: Record<string, unknown>, options: HttpProxyOptions, secrets?: Secrets): BuiltRequest {
  let path = binding.path;
  const query = new URLSearchParams();
  const headers = new Headers();
  const cookies: string[] = [];
  for (const p of binding.params) {
    const value = args[p.arg];
    if (value === undefined) continue;
    // Path values are one segment: RFC 6570 simple expansion escapes everything outside unreserved.
    if (p.in === 'path') path = path.replaceAll(`{${p.name}}`, encodeURIComponent(scalar(value)));
    else if (p.in === 'query') appendQuery(query, p, value);
    else if (p.in === 'header') headers.set(p.name, Array.isArray(value) ? value.map(scalar).join(',') : scalar(value));
    else cookies.push(`${p.name}=${encodeURIComponent(scalar(value))}`);
  }
  const env = options.env ?? process.env;
  // After the arguments: a configured credential replaces an argument of the same name (the model never chooses the key).
  for (const a of operationAuth(binding, options)) applyAuth(a, secrets?.get(a) ?? env[a.env], headers, query, cookies);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  headers.set('accept', 'application/json, text/*;q=0.9, */*;q=0.5');
  const value = binding.body === undefined ? undefined : args[binding.body.arg];
  const body = binding.body !== undefined && value !== undefined ? encodeBody(binding.body, value, headers) : undefined;
  const qs = query.toString();
  return { url: `${options.baseUrl.replace(/\/+$/, '')}${path}${qs === '' ? '' : `?${qs}`}`, headers, ...(body !== undefined ? { body } : {}) };
}

/** The configured schemes one operation uses (its `security`, else all). */
export function operationAuth(binding: HttpBinding, options: HttpProxyOptions): readonly HttpAuth[] {
  const all = options.auth ?? [];
  return binding.security === undefined ? all : all.filter((a) => binding.security!.includes(a.env));
}

function applyAuth(a: HttpAuth, secret: string | undefined, headers: Headers, query: URLSearchParams, cookies: string[]): void {
  if (secret === undefined || secret === '') return;
  if (a.type === 'bearer' || a.type === 'oauth2') headers.set('authorization', `Bearer ${secret}`);
  else if (a.type === 'basic') headers.set('authorization', `Basic ${Buffer.from(secret).toString('base64')}`);
  else if (a.in === 'header') headers.set(a.name, secret);
  else if (a.in === 'query') query.set(a.name, secret);
  else cookies.push(`${a.name}=${encodeURIComponent(secret)}`);
}

/**
 * The body in its media type. Binary data reaches a tool as base64 text (JSON has no bytes): a raw
 * non-text body, and the multipart parts the importer listed in `files`, are decoded before sending.
 */
function encodeBody(spec: NonNullable<HttpBinding['body']>, value: unknown, headers: Headers): string | Uint8Array | FormData {
  const type = spec.contentType;
  if (/^multipart\//i.test(type)) return multipart(value, new Set(spec.files ?? [])); // fetch sets the boundary
  headers.set('content-type', type);
  if (JSON_TYPE.test(type)) return JSON.stringify(value);
  if (type === 'application/x-www-form-urlencoded') return formBody(value);
  if (TEXT_TYPE.test(type)) return scalar(value);
  return typeof value === 'string' ? Buffer.from(value, 'base64') : new TextEncoder().encode(JSON.stringify(value));
}

function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function formBody(value: unknown): string {
  const form = new URLSearchParams();
  for (const [k, v] of fields(value)) form.append(k, scalar(v));
  return form.toString();
}

function multipart(value: unknown, files: ReadonlySet<string>): FormData {
  const form = new FormData();
  for (const [k, v] of fields(value)) {
    if (files.has(k) && typeof v === 'string') form.append(k, new Blob([Buffer.from(v, 'base64')], { type: 'application/octet-stream' }), k);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) form.append(k, new Blob([JSON.stringify(v)], { type: 'application/json' }));
    else form.append(k, scalar(v));
  }
  return form;
}

/** An object's fields; an array value is one field per item (form style, explode). */
function fields(value: unknown): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [];
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) out.push([k, item]);
  }
  return out;
}
