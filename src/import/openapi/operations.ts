// Each OpenAPI operation → one tool of the spec with its `http:` binding (the operation the generated
// proxy calls), written short: a param is its location alone unless its wire name or style differ.
import { convertSchema, isObj, type RefMap } from './schema.js';
import type { SchemaSink } from './schema-repair.js';
import type { ImportNote } from './notes.js';
import { requestBody } from './bodies.js';
import { DEFAULT_CONTENT_TYPE, pathVariables } from '../../common/http-binding.js';

type Obj = Record<string, unknown>;

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Location = 'path' | 'query' | 'header' | 'cookie';

/** A spec `http.params` entry: the location alone, or with the wire name and query style. */
export type ParamBinding = Location | { readonly in: Location; readonly name?: string; readonly style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject'; readonly explode?: boolean; readonly contentType?: string };

/** The tool, its `http:` added by the caller once the security is known. */
export interface MappedOperation {
  readonly tool: Obj;
  readonly http: { method: string; path: string; params?: Record<string, ParamBinding>; body?: string | { property: string; contentType?: string; files?: readonly string[] }; security?: string[] };
}

export interface OperationRef {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly op: Obj;
  readonly pathItem: Obj;
  readonly pointer: readonly (string | number)[];
  readonly swagger2: boolean;
  readonly defs: Readonly<Record<string, unknown>>;
  readonly refs: RefMap;
  /** Notes of repaired schema keywords, and the origins of converted schemas. */
  readonly sink?: SchemaSink;
  /** Swagger 2.0: the document's `consumes` (an operation's own replaces it). */
  readonly consumes?: readonly unknown[];
  /** Follows a `$ref` on a parameter, request body or response (a schema's stays a `$ref`). */
  readonly deref: (v: unknown) => unknown;
}

/** The tool for one operation, or why it was skipped (a note at the operation's position). */
export function mapOperation(ref: OperationRef, name: string, notes: ImportNote[]): MappedOperation | undefined {
  // Azure's `/{id}#disambiguation_dummy` (two operations on one path): a fragment never goes on the wire.
  const path = ref.path.replace(/#.*$/s, '');
  const params = matchTemplate(path, mergedParameters(ref));
  const properties: Obj = {};
  const required: string[] = [];
  const bindings: Record<string, ParamBinding> = {};
  // Swagger 2.0's body parameter is itself often called `body`: only path, query, header and cookie names count.
  const taken = new Set(params.filter((p) => p.in !== 'body' && p.in !== 'formData').map((p) => String(p.name)));
  for (const p of params) {
    const where = p.in as string;
    if (where === 'body' || where === 'formData') continue;
    const arg = argName(String(p.name), where, params);
    properties[arg] = paramSchema(p, ref);
    if (p.required === true || where === 'path') required.push(arg);
    const rest = { ...(arg !== p.name ? { name: String(p.name) } : {}), ...(where === 'query' ? (jsonContent(p) ? { contentType: DEFAULT_CONTENT_TYPE } : queryStyle(p)) : {}) };
    bindings[arg] = Object.keys(rest).length === 0 ? (where as Location) : { in: where as Location, ...rest };
  }
  const body = requestBody(ref, params, notes);
  if (body === null) return undefined;
  let bodyBinding: MappedOperation['http']['body'];
  if (body !== undefined) {
    const arg = taken.has('body') ? 'request_body' : 'body';
    properties[arg] = body.schema;
    if (body.required) required.push(arg);
    bodyBinding = body.contentType === DEFAULT_CONTENT_TYPE && body.files === undefined ? arg : { property: arg, ...(body.contentType !== DEFAULT_CONTENT_TYPE ? { contentType: body.contentType } : {}), ...(body.files !== undefined ? { files: body.files } : {}) };
  }
  const output = responseSchema(ref);
  const tool: Obj = { name, ...describe(ref.op), annotations: annotations(ref.method), input: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } };
  const isObjectOutput = output !== undefined && objectLike(output, ref.defs);
  if (isObjectOutput) tool.output = output;
  const http = { method: ref.method.toUpperCase(), path, ...(Object.keys(bindings).length > 0 ? { params: bindings } : {}), ...(bodyBinding !== undefined ? { body: bodyBinding } : {}) };
  return { tool, http };
}

/**
 * Path-item parameters apply to every operation; an operation's own with the same name and `in` wins.
 * Header names ignore case: codeartifact's path-item `X-Amz-Content-Sha256` and its operation's
 * `x-amz-content-sha256` are one header (as two arguments, check refused them: MCPG133).
 */
function mergedParameters(ref: OperationRef): Obj[] {
  const out = new Map<string, Obj>();
  for (const list of [ref.pathItem.parameters, ref.op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const p = ref.deref(item);
      if (!isObj(p) || typeof p.name !== 'string' || ignoredHeader(p, ref.swagger2)) continue;
      const key = `${String(p.in)}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
      out.set(key, p);
    }
  }
  return [...out.values()];
}

/**
 * OpenAPI 3: header parameters named Accept, Content-Type or Authorization "SHALL be ignored" (the media
 * types and security schemes say those). vtex.local declares `Accept: application/json` on every operation:
 * as an argument, the model's value was replaced by the proxy's own Accept anyway. In Swagger 2.0, which has
 * no such rule, an Authorization parameter is kept (descriptions without securityDefinitions use one).
 */
// Headers the HTTP client writes from the request itself (azure.com/monitor-metricsCreate_API declares
// Content-Length): an argument for one could never be sent.
const CLIENT_OWNED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);

function ignoredHeader(p: Obj, swagger2: boolean): boolean {
  if (p.in !== 'header') return false;
  const name = String(p.name).toLowerCase();
  return name === 'accept' || name === 'content-type' || (name === 'authorization' && !swagger2) || CLIENT_OWNED.has(name);
}

/**
 * Descriptions get path parameters wrong now and then (a `{var}` never declared, a path parameter the
 * template lacks); the binding must match the template (MCPG114), so the first becomes a required
 * string and the second, never sent, is left out.
 */
function matchTemplate(path: string, params: Obj[]): Obj[] {
  const template = pathVariables(path);
  if ('problem' in template) return params; // check reports the path itself
  const kept = params.filter((p) => p.in !== 'path' || template.variables.includes(String(p.name)));
  const missing = template.variables.filter((v) => !kept.some((p) => p.in === 'path' && p.name === v));
  return [...kept, ...[...new Set(missing)].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: 'Path parameter the description does not declare.' }))];
}

/** A name used by two parameters (`id` in path and query) gets its location as a prefix: `query_id`. */
function argName(name: string, where: string, params: readonly Obj[]): string {
  const clash = params.filter((p) => p.name === name && p.in !== 'body').length > 1 || name === 'body';
  return clash ? `${where}_${name}` : name;
}

function paramSchema(p: Obj, ref: OperationRef): unknown {
  let schema: unknown = p.schema;
  if (schema === undefined && isObj(p.content)) schema = Object.values(p.content).find(isObj)?.schema;
  if (schema === undefined && ref.swagger2) {
    const { name: _n, in: _i, required: _r, description: _d, collectionFormat: _c, allowEmptyValue: _a, ...rest } = p;
    schema = rest;
  }
  const out = convertSchema(schema ?? {}, ref.refs, [...ref.pointer, 'parameters'], ref.sink) as Obj;
  if (typeof p.description === 'string' && out.description === undefined) out.description = p.description;
  if (p.deprecated === true) out.deprecated = true;
  return out;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;

/** The first 2xx answer's JSON schema (2.0: `schema` on the response). */
function responseSchema(ref: OperationRef): unknown {
  if (!isObj(ref.op.responses)) return undefined;
  const code = Object.keys(ref.op.responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort()[0];
  const res = code === undefined ? undefined : ref.deref(ref.op.responses[code]);
  if (!isObj(res)) return undefined;
  const at = [...ref.pointer, 'responses', code!];
  if (ref.swagger2) return res.schema === undefined ? undefined : convertSchema(res.schema, ref.refs, [...at, 'schema'], ref.sink);
  if (!isObj(res.content)) return undefined;
  const type = Object.keys(res.content).find((t) => JSON_TYPE.test(t));
  const media = type === undefined ? undefined : res.content[type];
  return isObj(media) && media.schema !== undefined ? convertSchema(media.schema, ref.refs, [...at, 'content', type!, 'schema'], ref.sink) : undefined;
}

/** structuredContent must be an object: an array or string answer is sent as text content instead. */
function objectLike(schema: unknown, defs: Readonly<Record<string, unknown>>, seen = new Set<unknown>()): boolean {
  if (!isObj(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    const m = /^#\/\$defs\/([^/]+)$/.exec(schema.$ref);
    return m !== null && objectLike(defs[m[1]!], defs, seen);
  }
  if (schema.type === 'object') return true;
  if (schema.type === undefined && Array.isArray(schema.allOf)) return schema.allOf.some((s) => objectLike(s, defs, seen));
  return false;
}

function describe(op: Obj): Obj {
  const parts = [op.summary, op.description].filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim());
  const unique = parts.length === 2 && parts[1]!.startsWith(parts[0]!) ? [parts[1]!] : parts;
  const text = [...(op.deprecated === true ? ['Deprecated.'] : []), ...unique].join('\n\n');
  return {
    ...(typeof op.summary === 'string' && op.summary.trim() !== '' ? { title: op.summary.trim() } : {}),
    ...(text !== '' ? { description: text } : {}),
  };
}

function annotations(method: string): Obj {
  const safe = method === 'get' || method === 'head' || method === 'options';
  return { readOnlyHint: safe, ...(safe ? {} : { destructiveHint: method === 'delete' }), idempotentHint: safe || method === 'put' || method === 'delete', openWorldHint: true };
}

/** OpenAPI 3 `content: {application/json: …}` on a parameter (rudder.example.local's `include`): one JSON text, no style. */
function jsonContent(p: Obj): boolean {
  return isObj(p.content) && Object.keys(p.content).some((t) => JSON_TYPE.test(t));
}

type QueryStyle = Pick<Exclude<ParamBinding, Location>, 'style' | 'explode'>;

const COLLECTION_FORMATS: Readonly<Record<string, QueryStyle>> = {
  csv: { style: 'form', explode: false }, ssv: { style: 'spaceDelimited' }, pipes: { style: 'pipeDelimited' }, multi: {},
};

/** A query parameter's serialisation when it is not OpenAPI's default (form, exploded); 2.0's `collectionFormat` defaults to csv. */
function queryStyle(p: Obj): QueryStyle {
  if (p.type === 'array') return COLLECTION_FORMATS[typeof p.collectionFormat === 'string' ? p.collectionFormat : 'csv'] ?? {};
  const style = p.style === 'spaceDelimited' || p.style === 'pipeDelimited' || p.style === 'deepObject' ? p.style : undefined;
  const explode = typeof p.explode === 'boolean' && p.explode !== (style === undefined) ? { explode: p.explode } : {};
  return { ...(style !== undefined ? { style } : {}), ...explode };
}
