// An operation's request body → the tool's `body` argument and how the proxy sends it. JSON and form
// bodies keep their schema; multipart keeps it with binary fields as base64 text (listed in `files`,
// sent as file parts); text bodies are a string; any other type is raw bytes, given as base64 (MCP
// arguments are JSON, which has no bytes). Swagger 2.0 `formData` parameters make a form or multipart body.
import { convertSchema, isObj, type RefMap } from './schema.js';
import type { SchemaSink } from './schema-repair.js';
import type { ImportNote } from './notes.js';
import { DEFAULT_CONTENT_TYPE } from '../../common/http-binding.js';

type Obj = Record<string, unknown>;

/** What the body mapping reads of an operation (operations.ts's OperationRef has it). */
interface BodyRef {
  readonly method: string;
  readonly path: string;
  readonly op: Obj;
  readonly pointer: readonly (string | number)[];
  readonly swagger2: boolean;
  readonly refs: RefMap;
  readonly sink?: SchemaSink;
  readonly deref: (v: unknown) => unknown;
  /** Swagger 2.0: the document's `consumes` (an operation's own replaces it). */
  readonly consumes?: readonly unknown[];
}

export interface MappedBody {
  readonly schema: unknown;
  readonly required: boolean;
  readonly contentType: string;
  readonly files?: readonly string[];
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;
const TEXT_TYPE = /^(?:text\/|application\/(?:[\w.+-]*\+)?xml\b|application\/(?:javascript|yaml|x-yaml|x-ndjson|graphql)\b)/i;
const BASE64 = { type: 'string', contentEncoding: 'base64' } as const;

/** The preferred media type: JSON, then form, multipart, text, then the first (raw bytes). */
function preferred(types: readonly string[]): string | undefined {
  const tests = [(t: string) => JSON_TYPE.test(t), (t: string) => t === 'application/x-www-form-urlencoded', (t: string) => /^multipart\/form-data\b/i.test(t), (t: string) => TEXT_TYPE.test(t), (t: string) => !t.includes('*') || t === '*/*'];
  for (const test of tests) {
    const hit = types.find((t) => test(t.split(';')[0]!.trim()));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** undefined: no body; null: the operation is skipped (a body the proxy cannot send). */
export function requestBody(ref: BodyRef, params: readonly Obj[], notes: ImportNote[]): MappedBody | undefined | null {
  if (ref.swagger2) return swagger2Body(ref, params);
  const rb = ref.deref(ref.op.requestBody);
  if (!isObj(rb) || !isObj(rb.content)) return undefined;
  const types = Object.keys(rb.content);
  // spoonacular.com lists a media type named "" (beside application/json, or alone): no type at all.
  if (types.length > 0 && types.every((t) => t.trim() === '')) return emptyMediaType(ref, rb, types[0]!, notes);
  const chosen = preferred(types.filter((t) => t.trim() !== ''));
  if (chosen === undefined) {
    notes.push({ code: 'MCPG131', pointer: [...ref.pointer, 'requestBody', 'content'], message: `${ref.method.toUpperCase()} ${ref.path} skipped: no request body type the proxy can send among ${types.join(', ')}` });
    return null;
  }
  const media = rb.content[chosen];
  const raw = isObj(media) ? (media.schema ?? {}) : {};
  return bodyOf(chosen, raw, rb.required === true, ref, [...ref.pointer, 'requestBody', 'content', chosen, 'schema']);
}

/** A body whose only media type is named "": a schema to send, and JSON the one type that can carry any. */
function emptyMediaType(ref: BodyRef, rb: Obj, key: string, notes: ImportNote[]): MappedBody {
  const at = [...ref.pointer, 'requestBody', 'content', key];
  notes.push({ code: 'MCPG191', pointer: at, message: `a request body media type named ${JSON.stringify(key)} is no media type: the body is sent as ${DEFAULT_CONTENT_TYPE}` });
  const media = (rb.content as Obj)[key];
  return bodyOf(DEFAULT_CONTENT_TYPE, isObj(media) ? (media.schema ?? {}) : {}, rb.required === true, ref, [...at, 'schema']);
}

/** The body argument for one media type: JSON and form keep the schema, multipart too (files as base64), text a string, else base64 bytes. */
function bodyOf(chosen: string, raw: unknown, required: boolean, ref: BodyRef, at: readonly (string | number)[]): MappedBody {
  const type = chosen.split(';')[0]!.trim();
  if (JSON_TYPE.test(type) || type === 'application/x-www-form-urlencoded') return { schema: convertSchema(raw, ref.refs, at, ref.sink), required, contentType: type };
  if (/^multipart\//i.test(type)) return multipartBody(raw, ref, required, type, at);
  if (TEXT_TYPE.test(type)) return { schema: { type: 'string', description: `The ${type} body.` }, required, contentType: type };
  return { schema: { ...BASE64, description: `The ${type === '*/*' ? 'request' : type} body, base64-encoded.` }, required, contentType: type === '*/*' ? 'application/octet-stream' : type };
}

/** Multipart: top-level binary properties become base64 strings, sent as file parts. */
function multipartBody(raw: unknown, ref: BodyRef, required: boolean, type: string, at: readonly (string | number)[]): MappedBody {
  const schema = convertSchema(raw, ref.refs, at, ref.sink) as Obj;
  const shape = ref.deref(raw);
  const files: string[] = [];
  if (isObj(shape) && isObj(shape.properties) && isObj(schema.properties)) {
    const props: Obj = { ...schema.properties };
    for (const [name, p] of Object.entries(shape.properties)) {
      const prop = ref.deref(p);
      const items = isObj(prop) && prop.type === 'array' ? ref.deref(prop.items) : undefined;
      if (binary(prop)) props[name] = { ...BASE64, description: describeFile(prop) };
      else if (binary(items)) props[name] = { type: 'array', items: { ...BASE64 }, description: describeFile(prop) };
      else continue;
      files.push(name);
    }
    schema.properties = props;
  }
  return { schema, required, contentType: type, ...(files.length > 0 ? { files } : {}) };
}

/** `format: binary` (3.0), `contentMediaType` without `contentEncoding` text (3.1), or 2.0 `type: file`. */
function binary(s: unknown): boolean {
  if (!isObj(s)) return false;
  return s.type === 'file' || (s.type === 'string' && (s.format === 'binary' || s.format === 'byte' || typeof s.contentMediaType === 'string'));
}

function describeFile(s: unknown): string {
  const own = isObj(s) && typeof s.description === 'string' ? `${s.description.trim()} ` : '';
  return `${own}(file contents, base64-encoded)`;
}

/** 2.0: a `body` parameter is JSON; `formData` parameters are a form, multipart when one is a file. */
function swagger2Body(ref: BodyRef, params: readonly Obj[]): MappedBody | undefined {
  const body = params.find((p) => p.in === 'body');
  // The operation's `consumes` replaces the document's (an upload declaring application/octet-stream under a
  // global application/json is sent as raw bytes, as its OpenAPI 3 form would be).
  const consumes = (Array.isArray(ref.op.consumes) ? ref.op.consumes : (ref.consumes ?? [])).map(String);
  if (body !== undefined) return bodyOf(preferred(consumes) ?? 'application/json', body.schema, body.required === true, ref, [...ref.pointer, 'parameters']);
  const form = params.filter((p) => p.in === 'formData');
  if (form.length === 0) return undefined;
  const properties: Obj = {};
  const required: string[] = [];
  const files: string[] = [];
  for (const p of form) {
    const name = String(p.name);
    if (p.type === 'file') {
      properties[name] = { ...BASE64, description: describeFile(p) };
      files.push(name);
    } else {
      const { name: _n, in: _i, required: _r, collectionFormat: _c, allowEmptyValue: _a, ...rest } = p;
      properties[name] = convertSchema(rest, ref.refs, [...ref.pointer, 'parameters'], ref.sink);
    }
    if (p.required === true) required.push(name);
  }
  const multipart = files.length > 0 || consumes.some((c) => c.startsWith('multipart/form-data'));
  return {
    schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    required: required.length > 0,
    contentType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    ...(files.length > 0 ? { files } : {}),
  };
}
