// An MCP input schema in the subset Gemini's function declarations take (its `Schema`: an OpenAPI 3.0
// subset; @mcpgen/runtime/shared/provider-rules lists it): references inlined, `const` as a one-value
// `enum`, `oneOf` as `anyOf`, a type list as `anyOf` of single types, and keywords Gemini does not have
// left out (the MCP server still validates every call against the full schema). Property names Gemini
// refuses (`user-id`) are renamed per object with the tool-name mapping (provider-names.ts: stable and
// collision-free), and fromGeminiArguments renames them back, so the handler gets what a plain MCP call
// gives. Every other change keeps the arguments the model can send a subset of what the server accepts.
import { GEMINI_PROPERTY_NAMES, providerNames } from '@mcpgen/runtime/shared/provider-names';
import { GEMINI_DROPPED } from '@mcpgen/runtime/shared/provider-rules';

type Schema = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** References are inlined this deep; a recursive schema is cut there (any value, checked by the server). */
const MAX_INLINE = 8;

/** The Gemini form of a tool's input schema (the root stays `type: object`). */
export function toGeminiSchema(input: Schema): Schema {
  return convert(input, input, 0);
}

/** `outer`: the names of the object an `anyOf`/`oneOf` branch constrains (`{ required: [...] }` branches name its properties). */
function convert(s: Schema, root: Schema, depth: number, outer: ReadonlyMap<string, string> = new Map()): Schema {
  if (typeof s.$ref === 'string') {
    const target = depth < MAX_INLINE ? resolveLocal(root, s.$ref) : undefined;
    const { $ref: _ref, ...rest } = s;
    return target === undefined ? convert(rest, root, depth, outer) : convert({ ...target, ...rest }, root, depth + 1, outer);
  }
  if (Array.isArray(s.allOf)) return convert(mergeAllOf(s, root, depth), root, depth + 1, outer);
  const out: Record<string, unknown> = {};
  const names = isObject(s.properties) ? propertyNames(s) : outer;
  const sent = (name: unknown) => (typeof name === 'string' ? (names.get(name) ?? name) : name);
  for (const [key, value] of Object.entries(s)) {
    if (GEMINI_DROPPED.includes(key) || key === '$defs' || key === 'x-mcp-header') continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'oneOf' || key === 'anyOf') out.anyOf = (value as unknown[]).map((v) => (isObject(v) ? convert(v, root, depth, names) : v));
    else if (key === 'items' && isObject(value)) out.items = convert(value, root, depth);
    else if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [sent(k), isObject(v) ? convert(v, root, depth) : v]));
    else if (key === 'required' && Array.isArray(value)) out.required = value.map(sent);
    else out[key] = value;
  }
  if (Array.isArray(out.type)) return typeList(out, out.type as string[]);
  return out;
}

/**
 * Gemini's Schema has no `allOf`: its parts (references followed) are merged into the schema — properties
 * and `required` joined, other keywords taken where the schema has none. A part that says something else
 * for a keyword already set (two types, two different properties of one name) is left out there, which
 * widens what the model may send; the server still checks the whole allOf (`check --target gemini` says so).
 */
export function mergeAllOf(s: Schema, root: Schema, depth: number): Schema {
  const { allOf, ...base } = s;
  const out: Record<string, unknown> = { ...base };
  for (const raw of allOf as unknown[]) {
    if (!isObject(raw)) continue;
    const part = typeof raw.$ref === 'string' && depth < MAX_INLINE ? { ...(resolveLocal(root, raw.$ref) ?? {}), ...withoutRef(raw) } : raw;
    for (const [key, value] of Object.entries(part)) {
      if (key === '$ref' || key === '$defs') continue;
      if (key === 'properties' && isObject(value)) out.properties = { ...value, ...(isObject(out.properties) ? out.properties : {}) };
      else if (key === 'required' && Array.isArray(value)) out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...value])];
      else if (!(key in out)) out[key] = value;
    }
  }
  return out;
}

function withoutRef(s: Schema): Schema {
  const { $ref: _ref, ...rest } = s;
  return rest;
}

/** `type: [a, b]` → `anyOf: [{ type: a, …keywords of a }, { type: b }]`: Gemini's Schema has one type per schema. */
function typeList(s: Record<string, unknown>, types: readonly string[]): Schema {
  if (types.length === 1) return { ...s, type: types[0] };
  const { type: _type, description, title, ...rest } = s;
  return { ...(description !== undefined ? { description } : {}), ...(title !== undefined ? { title } : {}), anyOf: types.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...rest })) };
}

/** MCP property name → the name Gemini is sent, for one object schema (empty when it has no properties). */
function propertyNames(s: Schema): ReadonlyMap<string, string> {
  return isObject(s.properties) ? providerNames(Object.keys(s.properties), GEMINI_PROPERTY_NAMES).toProvider : new Map();
}

/**
 * Arguments a model sent for the Gemini form of `original` → the arguments of a plain MCP call: each renamed
 * property gets its MCP name back (nested objects, array items, local `$ref`s and `anyOf`/`oneOf` branches
 * included; a branch is the first whose properties hold every key sent). Anything else passes untouched.
 */
export function fromGeminiArguments(original: Schema, args: unknown): unknown {
  return back(original, args, original, 0);
}

function back(s: Schema, value: unknown, root: Schema, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (typeof s.$ref === 'string') {
    const target = resolveLocal(root, s.$ref);
    const { $ref: _ref, ...rest } = s;
    return back(target === undefined ? rest : { ...target, ...rest }, value, root, depth + 1);
  }
  if (Array.isArray(value) && isObject(s.items)) return value.map((v) => back(s.items as Schema, v, root, depth + 1));
  if (!Array.isArray(value) && isObject(s.properties)) return renameBack(s.properties, value as Schema, root, depth);
  const branch = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])].find((b) => isObject(b) && fits(b, value, root));
  return isObject(branch) ? back(branch, value, root, depth + 1) : value;
}

function renameBack(props: Schema, value: Schema, root: Schema, depth: number): Schema {
  const fromSent = providerNames(Object.keys(props), GEMINI_PROPERTY_NAMES).fromProvider;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const name = fromSent.get(k) ?? k;
    const sub = Object.hasOwn(props, name) ? props[name] : undefined;
    out[name] = isObject(sub) ? back(sub, v, root, depth + 1) : v;
  }
  return out;
}

/** Whether a branch describes the value: an array's `items`, or properties holding every key sent (its `$ref` followed). */
function fits(branch: Schema, value: object, root: Schema): boolean {
  const s = typeof branch.$ref === 'string' ? (resolveLocal(root, branch.$ref) ?? branch) : branch;
  if (Array.isArray(value)) return isObject(s.items);
  if (!isObject(s.properties)) return false;
  const sent = new Set(propertyNames(s).values());
  return Object.keys(value).every((k) => sent.has(k));
}

function resolveLocal(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const seg of ref.slice(1).split('/').filter((x) => x !== '')) {
    const key = decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return isObject(node) ? node : undefined;
}
