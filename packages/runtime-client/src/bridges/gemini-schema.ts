// An MCP input schema in the subset Gemini's function declarations take (its `Schema`: an OpenAPI 3.0
// subset; @mcpgen/runtime/shared/provider-rules lists it): references inlined, `const` as a one-value
// `enum`, `oneOf` as `anyOf`, a type list as `anyOf` of single types, and keywords Gemini does not have
// left out (the MCP server still validates every call against the full schema). Every change keeps the
// set of arguments the model can send a subset of what the server accepts, so arguments need no mapping
// back. Parameter names Gemini refuses are reported by `mcpgen check --target gemini`, not renamed.
import { GEMINI_DROPPED } from '@mcpgen/runtime/shared/provider-rules';

type Schema = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** References are inlined this deep; a recursive schema is cut there (any value, checked by the server). */
const MAX_INLINE = 8;

/** The Gemini form of a tool's input schema (the root stays `type: object`). */
export function toGeminiSchema(input: Schema): Schema {
  return convert(input, input, 0);
}

function convert(s: Schema, root: Schema, depth: number): Schema {
  if (typeof s.$ref === 'string') {
    const target = depth < MAX_INLINE ? resolveLocal(root, s.$ref) : undefined;
    const { $ref: _ref, ...rest } = s;
    return target === undefined ? convert(rest, root, depth) : convert({ ...target, ...rest }, root, depth + 1);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (GEMINI_DROPPED.includes(key) || key === '$defs' || key === 'x-mcp-header') continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'oneOf' || key === 'anyOf') out.anyOf = (value as unknown[]).map((v) => (isObject(v) ? convert(v, root, depth) : v));
    else if (key === 'items' && isObject(value)) out.items = convert(value, root, depth);
    else if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? convert(v, root, depth) : v]));
    else out[key] = value;
  }
  if (Array.isArray(out.type)) return typeList(out, out.type as string[]);
  return out;
}

/** `type: [a, b]` → `anyOf: [{ type: a, …keywords of a }, { type: b }]`: Gemini's Schema has one type per schema. */
function typeList(s: Record<string, unknown>, types: readonly string[]): Schema {
  if (types.length === 1) return { ...s, type: types[0] };
  const { type: _type, description, title, ...rest } = s;
  return { ...(description !== undefined ? { description } : {}), ...(title !== undefined ? { title } : {}), anyOf: types.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...rest })) };
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
