// The upstream request of one proxied tool call: path template, query, headers, cookies, credentials
// and the body in the operation's media type (JSON, form, multipart, text or raw bytes).
import { headerValue, pathValue } from './http-arguments.js';
import { appendQuery } from './http-query.js';
import { credentialPlaces, type CredentialPlaces } from './http-redirect.js';
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

/**
 * One operation's per-call constants, worked out once per binding (httpProxy) rather than on every call:
 * the method, the schemes it sends, the base URL without its trailing slashes.
 */
export interface Operation {
  readonly binding: HttpBinding;
  readonly options: HttpProxyOptions;
  readonly method: string;
  readonly auth: readonly HttpAuth[];
  /** `options.baseUrl` without trailing slashes; undefined when it is not an http(s) URL. */
  readonly base: string | undefined;
  /** Secrets to fetch before building (an `upstreamToken` hook, an OAuth 2 scheme); otherwise each is read from `env` as it is built. */
  readonly fetchesSecrets: boolean;
  /** The headers and query keys that carry its credentials: emptied on a redirect to another origin. */
  readonly credentials: CredentialPlaces;
}

export function operationOf(binding: HttpBinding, options: HttpProxyOptions): Operation {
  const base = /^https?:\/\//i.test(options.baseUrl) ? options.baseUrl.replace(/\/+$/, '') : undefined;
  const auth = operationAuth(binding, options);
  return { binding, options, method: binding.method.toUpperCase(), auth, base, fetchesSecrets: options.upstreamToken !== undefined || auth.some((a) => a.type === 'oauth2'), credentials: credentialPlaces(auth) };
}

/**
 * The request with its headers as a plain record: lower-case names (a later value replaces an earlier one,
 * as Headers.set does), values without surrounding HTTP whitespace (as Headers keeps them). node:http
 * takes it as it is (and checks names and values as Headers would); fetch gets a Headers made of it.
 */
export interface RequestParts {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array | FormData;
  /** Where the credentials are (the operation's): a redirect to another origin drops them. */
  readonly credentials?: CredentialPlaces;
}

export function buildRequest(binding: HttpBinding, args: Record<string, unknown>, options: HttpProxyOptions, secrets?: Secrets): BuiltRequest {
  return withHeaders(requestParts(operationOf(binding, options), args, secrets));
}

/** The parts with a Headers object (what fetch is given: its checks throw here, before the attempt). */
export function withHeaders(parts: RequestParts): BuiltRequest {
  const headers = new Headers();
  for (const name in parts.headers) headers.set(name, parts.headers[name]!);
  return { url: parts.url, headers, ...(parts.body !== undefined ? { body: parts.body } : {}) };
}

export function requestParts(op: Operation, args: Record<string, unknown>, secrets?: Secrets): RequestParts {
  const { binding, options } = op;
  let path = binding.path;
  // Made only when a parameter or credential goes in the query (most operations send none).
  let query: URLSearchParams | undefined;
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const p of binding.params) {
    const value = args[p.arg];
    if (value === undefined) continue;
    // Path values are one segment: RFC 6570 simple expansion escapes everything outside unreserved; a
    // dot-segment no escaping keeps from resolving, and a header value no header can carry, throw InvalidArgument.
    if (p.in === 'path') path = path.replaceAll(`{${p.name}}`, encodeURIComponent(pathValue(p.arg, scalar(value))));
    else if (p.in === 'query') appendQuery((query ??= new URLSearchParams()), p, value);
    else if (p.in === 'header') setHeader(headers, p.name, headerValue(p.arg, Array.isArray(value) ? value.map(scalar).join(',') : scalar(value)));
    else cookies.push(`${p.name}=${encodeURIComponent(scalar(value))}`);
  }
  if (op.auth.length > 0) {
    const env = options.env ?? process.env;
    // After the arguments: a configured credential replaces an argument of the same name (the model never chooses the key).
    for (const a of op.auth) {
      const secret = secrets?.get(a) ?? env[a.env];
      if (secret !== undefined && secret !== '' && a.type === 'apiKey' && a.in === 'query') (query ??= new URLSearchParams()).set(a.name, secret);
      else applyAuth(a, secret, headers, cookies);
    }
  }
  if (cookies.length > 0) setHeader(headers, 'cookie', cookies.join('; '));
  headers.accept = 'application/json, text/*;q=0.9, */*;q=0.5';
  const value = binding.body === undefined ? undefined : args[binding.body.arg];
  const body = binding.body !== undefined && value !== undefined ? encodeBody(binding.body, value, headers) : undefined;
  const qs = query === undefined ? '' : query.toString();
  // A path may carry a query of its own (freetv-app.com's `/services?funcs=…`): the arguments follow it with `&`.
  const url = `${op.base ?? options.baseUrl.replace(/\/+$/, '')}${path}${qs === '' ? '' : `${path.includes('?') ? '&' : '?'}${qs}`}`;
  const { credentials } = op;
  return body !== undefined ? { url, headers, body, credentials } : { url, headers, credentials };
}

/** Headers.set on the record: the name lower-cased, the value without leading or trailing HTTP whitespace. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  headers[name.toLowerCase()] = value !== '' && (isHttpSpace(value.charCodeAt(0)) || isHttpSpace(value.charCodeAt(value.length - 1))) ? value.replace(HTTP_SPACE, '') : value;
}

const HTTP_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const isHttpSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** The configured schemes one operation uses (its `security`, else all). */
export function operationAuth(binding: HttpBinding, options: HttpProxyOptions): readonly HttpAuth[] {
  const all = options.auth ?? [];
  return binding.security === undefined ? all : all.filter((a) => binding.security!.includes(a.env));
}

/** A credential in its header or cookie (a query one is set by the caller, which owns the query). */
function applyAuth(a: HttpAuth, secret: string | undefined, headers: Record<string, string>, cookies: string[]): void {
  if (secret === undefined || secret === '') return;
  if (a.type === 'bearer' || a.type === 'oauth2') setHeader(headers, 'authorization', `Bearer ${secret}`);
  else if (a.type === 'basic') setHeader(headers, 'authorization', `Basic ${Buffer.from(secret).toString('base64')}`);
  else if (a.in === 'header') setHeader(headers, a.name, secret);
  else cookies.push(`${a.name}=${encodeURIComponent(secret)}`);
}

/**
 * The body in its media type. Binary data reaches a tool as base64 text (JSON has no bytes): a raw
 * non-text body, and the multipart parts the importer listed in `files`, are decoded before sending.
 */
function encodeBody(spec: NonNullable<HttpBinding['body']>, value: unknown, headers: Record<string, string>): string | Uint8Array | FormData {
  const type = spec.contentType;
  if (/^multipart\//i.test(type)) return multipart(value, new Set(spec.files ?? [])); // fetch sets the boundary
  setHeader(headers, 'content-type', type);
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
