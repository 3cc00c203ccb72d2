// What the upstream of an imported OpenAPI description must have received for one tool call: method,
// path, query, headers, body (in the operation's media type) and the configured credentials, never the
// MCP caller's. Shared by the petstore cases and GitHub's description.
import type { IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import { envName } from '../../src/common/http-binding.js';
import { httpBindingModel } from '../../src/model/http.js';
import type { RawTool, RawUpstream } from '../../src/validate/spec-types.js';

export interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly bytes: Buffer;
}

export type Binding = { method: string; path: string; params: { arg: string; name: string; in: string; style?: string; explode?: boolean; contentType?: string }[]; body?: BodyBinding; security?: readonly string[]; output: boolean };
export type BodyBinding = { arg: string; contentType: string; files?: readonly string[] };

export async function expectRequest(req: Seen, binding: Binding, args: Record<string, unknown>, base: string, auth: readonly { type: string; env: string; in?: string; name?: string }[], tool: string): Promise<void> {
  expect(req.method, tool).toBe(binding.method);
  let path = binding.path;
  for (const p of binding.params.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(String(args[p.arg])));
  // A path key may carry a query of its own (freetv-app.com's `/services?funcs=…`): sent as query parameters.
  const [pathname, fixed] = path.split('?') as [string, string | undefined];
  expect(req.url.pathname, tool).toBe(`${base}${pathname}`);
  if (fixed !== undefined) expect(req.url.search.startsWith(`?${fixed}`), `${tool} query ${req.url.search} after ?${fixed}`).toBe(true);
  for (const p of binding.params) {
    const v = args[p.arg];
    if (v === undefined) continue;
    const want = (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
    if (p.in === 'query') for (const [key, values] of queryWant(p, v)) expect(req.url.searchParams.getAll(key), `${tool} query ${key}`).toEqual(values);
    // A header that is also an API key credential (the petstores' `api_key`) carries the configured
    // secret: the model's argument never replaces a credential (checked with the credentials below).
    const credential = auth.some((a) => a.type === 'apiKey' && a.in === 'header' && a.name!.toLowerCase() === p.name.toLowerCase());
    if (p.in === 'header' && !credential) expect(req.headers[p.name.toLowerCase()], `${tool} header ${p.name}`).toBe(want.join(','));
  }
  if (binding.body !== undefined && args[binding.body.arg] !== undefined) await expectBody(req, binding.body, args[binding.body.arg], tool);
  const listed = (a: { env: string }) => binding.security === undefined || binding.security.includes(a.env);
  // Schemes that write one header (bearer and OAuth 2 Authorization, an API key called Authorization)
  // share it: an operation whose `security` lists several as alternatives (Google's Oauth2 and Oauth2c,
  // authentiq.io's key and tokens) gets one of them there, never an unlisted one's.
  const slots = new Map<string, { value: string; listed: boolean; env: string }[]>();
  for (const a of auth) {
    const slot = a.type === 'bearer' || a.type === 'oauth2' ? 'authorization' : a.type === 'apiKey' && a.in === 'header' ? a.name!.toLowerCase() : undefined;
    if (slot !== undefined) slots.set(slot, [...(slots.get(slot) ?? []), { value: slot === 'authorization' && a.type !== 'apiKey' ? `Bearer secret-${a.env}` : `secret-${a.env}`, listed: listed(a), env: a.env }]);
  }
  for (const [slot, schemes] of slots) {
    if (schemes.some((x) => x.listed)) expect(schemes.filter((x) => x.listed).map((x) => x.value), `${tool} ${slot}`).toContain(req.headers[slot]);
    else for (const x of schemes) expect(req.headers[slot], `${tool} sends no ${x.env}`).not.toBe(x.value);
  }
  for (const a of auth) {
    const secret = `secret-${a.env}`;
    // The operation's own `security` (else the document's) picks the schemes sent; the others' secrets stay home.
    const sent = (v: unknown) => (listed(a) ? expect(v, tool).toBe(secret) : expect(v, `${tool} sends no ${a.env}`).not.toBe(secret));
    if (a.type === 'apiKey' && a.in === 'query') sent(req.url.searchParams.get(a.name!));
  }
  // The MCP caller's own credentials never reach the upstream: only configured ones are there.
  expect(req.headers['mcp-protocol-version'], tool).toBeUndefined();
}

/** The body as the upstream got it, in the operation's media type, against the argument the model sent. */
export async function expectBody(req: Seen, body: BodyBinding, value: unknown, tool: string): Promise<void> {
  const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  const fields = (v: unknown): [string, unknown][] => Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => (Array.isArray(x) ? x.map((i): [string, unknown] => [k, i]) : [[k, x]]));
  if (body.contentType.startsWith('multipart/')) {
    expect(req.headers['content-type'], tool).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(req.bytes, { headers: { 'content-type': req.headers['content-type']! } }).formData();
    for (const [k, v] of fields(value)) {
      const part = form.getAll(k).shift()!;
      if (body.files?.includes(k)) expect(Buffer.from(await (part as Blob).arrayBuffer()), `${tool} file ${k}`).toEqual(Buffer.from(v as string, 'base64'));
      else expect(typeof part === 'string' ? part : JSON.parse(await part.text()), `${tool} part ${k}`).toEqual(typeof v === 'object' && v !== null ? v : text(v));
    }
    return;
  }
  expect(req.headers['content-type'], tool).toBe(body.contentType);
  if (/json/.test(body.contentType)) expect(JSON.parse(req.body), `${tool} body`).toEqual(value);
  else if (body.contentType === 'application/x-www-form-urlencoded') expect([...new URLSearchParams(req.body)], `${tool} body`).toEqual(fields(value).map(([k, v]) => [k, text(v)]));
  else if (/^text\/|xml/.test(body.contentType)) expect(req.body, `${tool} body`).toBe(text(value));
  else expect(req.bytes, `${tool} body`).toEqual(Buffer.from(value as string, 'base64'));
}

const text = (x: unknown): string => (typeof x === 'string' ? x : JSON.stringify(x));
const DELIMITER: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

/** Key → values an OpenAPI query style puts on the wire (written from the OpenAPI 3.1 style table, not from the runtime). */
function queryWant(p: { name: string; style?: string; explode?: boolean; contentType?: string }, v: unknown): [string, string[]][] {
  // `content: {application/json: …}` on the parameter: the value's JSON text under its name.
  if (p.contentType !== undefined) return [[p.name, [JSON.stringify(v)]]];
  const style = p.style ?? 'form';
  const explode = p.explode ?? style === 'form';
  const isObject = typeof v === 'object' && v !== null && !Array.isArray(v);
  if (style === 'deepObject' && isObject) return deep(p.name, v);
  if (isObject) return explode && style === 'form' ? Object.entries(v).map(([k, x]) => [k, [text(x)]]) : [[p.name, [Object.entries(v).flat().map(text).join(DELIMITER[style] ?? ',')]]];
  const items = (Array.isArray(v) ? v : [v]).map(text);
  return [[p.name, explode ? items : [items.join(DELIMITER[style] ?? ',')]]];
}

/**
 * The bindings and credentials the generated proxy runs with, read from the imported spec the way the
 * generator does (model/http.ts: short forms made whole, scheme names as their environment variables).
 */
export function proxyView(spec: Record<string, unknown>, server: string): { bindings: Record<string, Binding>; auth: Auth[] } {
  const upstream = (spec.upstream ?? {}) as RawUpstream;
  const auth = Object.entries(upstream.security ?? {}).map(([id, s]) => ({ ...s, env: s.env ?? envName(server, id) }));
  const envOf = new Map(Object.keys(upstream.security ?? {}).map((id, i) => [id, auth[i]!.env]));
  const bindings: Record<string, Binding> = {};
  for (const tool of spec.tools as RawTool[]) {
    const http = httpBindingModel(tool)!;
    bindings[tool.name] = { ...http, params: [...http.params], ...(http.security !== undefined ? { security: http.security.map((id) => envOf.get(id)!) } : {}), output: tool.output !== undefined };
  }
  return { bindings, auth };
}

type Auth = { type: string; env: string; in?: string; name?: string };

/** deepObject: `name[key]=value`, a nested object one bracket deeper (the runtime's documented reading; OpenAPI leaves nesting undefined). */
function deep(prefix: string, v: object): [string, string[]][] {
  return Object.entries(v).flatMap(([k, x]): [string, string[]][] => (typeof x === 'object' && x !== null && !Array.isArray(x) ? deep(`${prefix}[${k}]`, x) : [[`${prefix}[${k}]`, [text(x)]]]));
}
