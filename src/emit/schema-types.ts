// JSON Schema (2020-12) → TypeScript type expressions. Every spec string reaches the output through
// `literal()` (JSON escaping) or as a property key through `propertyKey()`; nothing is pasted raw.
import { isObjectSchema } from '../common/json-schema.js';
import { isIdentifierName } from '../common/names.js';
import type { DefaultsPlan } from '@mcpgen/runtime/shared/input-defaults';
import type { JsonSchema } from '../validate/spec-types.js';
import { docText, literal } from './doc.js';

export interface TypeScope {
  /** Type name for a spec `$defs` entry, when `ref` points at one. */
  readonly specDef: (ref: string) => string | undefined;
  /** The schema that `#` means (for local `$defs` and pointers). */
  readonly root: JsonSchema;
  /** Client arguments: optional properties also take `undefined` (exactOptionalPropertyTypes), which sends nothing. */
  readonly optionalUndefined?: boolean;
}

const MAX_DEPTH = 32;
const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties'] as const;

// types.ts names no global type (`Record`, `Array`, `Promise`, …): a `$defs` entry may take any of those names.
/** An object with no properties. */
export const NO_KEYS = '{ [key: string]: never }';
/** An object with any properties. */
export const ANY_KEYS = '{ [key: string]: unknown }';

export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : literal(name);
}

/**
 * `plan`: the input defaults the server fills in for this object (handler inputs): those properties are present.
 * `seen`: the schemas on the way here (a `$ref` back to one is `unknown`); added on the way down and taken
 * out on the way back, rather than a copy per subschema (a large spec's types.ts has ~100,000 of them).
 */
export function schemaToType(schema: JsonSchema, scope: TypeScope, depth = 0, seen: Set<unknown> = new Set(), plan?: DefaultsPlan): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (!isObjectSchema(schema) || depth > MAX_DEPTH || seen.has(schema)) return 'unknown';
  const leaf = leafType(schema);
  if (leaf !== undefined) return leaf;
  seen.add(schema);
  try {
    return objectSchemaType(schema, scope, depth, seen, plan);
  } finally {
    seen.delete(schema);
  }
}

const LEAF_TYPES: Readonly<Record<string, string>> = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean', null: 'null' };

/** Most subschemas (`{ type: string }` and its annotations and bounds): what objectSchemaType gives them, at once. */
function leafType(schema: { readonly [k: string]: unknown }): string | undefined {
  const type = typeof schema.type === 'string' && Object.hasOwn(LEAF_TYPES, schema.type) ? LEAF_TYPES[schema.type] : undefined;
  if (type === undefined || schema.$ref !== undefined || 'const' in schema || schema.enum !== undefined || schema.oneOf !== undefined || schema.anyOf !== undefined || schema.allOf !== undefined) return undefined;
  return type;
}

function objectSchemaType(schema: { readonly [k: string]: unknown }, scope: TypeScope, depth: number, seen: Set<unknown>, plan: DefaultsPlan | undefined): string {
  const sub = (s: unknown) => schemaToType(s as JsonSchema, scope, depth + 1, seen);
  const parts: string[] = [];

  if (typeof schema.$ref === 'string') {
    const named = scope.specDef(schema.$ref);
    parts.push(named ?? sub(resolveLocal(schema.$ref, scope.root)));
  }
  if ('const' in schema) return joinIntersection([...parts, jsonLiteral(schema.const)]);
  if (Array.isArray(schema.enum)) return joinIntersection([...parts, union(schema.enum.map(jsonLiteral))]);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) parts.push(union(list.map((s) => sub(s))));
  }
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((s) => sub(s)));

  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const implied = types.length === 0 && (isObjectSchema(schema.properties) || schema.additionalProperties !== undefined) ? ['object'] : types.length === 0 && (schema.items !== undefined || schema.prefixItems !== undefined) ? ['array'] : types;
  // A bare `type: object` beside a `$ref` or combinator that is already an object (an output root, see
  // model/build.ts) adds nothing but an index signature.
  const bareObject = parts.length > 0 && implied.length === 1 && implied[0] === 'object' && !OBJECT_KEYWORDS.some((k) => k in schema);
  if (implied.length > 0 && !bareObject) parts.push(union(implied.map((t) => primitive(t, schema, sub, scope, depth, seen, plan))));
  if (parts.length === 0) return 'unknown';
  return joinIntersection(parts);
}

function primitive(type: string, schema: { readonly [k: string]: unknown }, sub: (s: unknown) => string, scope: TypeScope, depth: number, seen: Set<unknown>, plan: DefaultsPlan | undefined): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        const items = schema.prefixItems.map((s) => sub(s));
        const rest = schema.items === false ? [] : [`...${wrap(schema.items === undefined ? 'unknown' : sub(schema.items))}[]`];
        return `[${[...items, ...rest].join(', ')}]`;
      }
      return `${wrap(schema.items === undefined ? 'unknown' : sub(schema.items))}[]`;
    }
    case 'object':
      return objectType(schema, scope, depth, seen, plan);
    default:
      return 'unknown';
  }
}

export function objectType(schema: { readonly [k: string]: unknown }, scope: TypeScope, depth = 0, seen: Set<unknown> = new Set(), plan?: DefaultsPlan): string {
  const props = isObjectSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const doc = isObjectSchema(prop) ? propertyDoc(prop) : '';
    const type = schemaToType(prop as JsonSchema, scope, depth + 1, seen, plan?.nested.get(name));
    const present = required.has(name) || plan?.values.has(name) === true;
    lines.push(`${doc}${propertyKey(name)}${present ? '' : '?'}: ${present || !scope.optionalUndefined || type === 'unknown' ? type : `${type} | undefined`};`);
  }
  const extra = schema.additionalProperties;
  if (extra === true || isObjectSchema(extra) || isObjectSchema(schema.patternProperties)) {
    lines.push('[key: string]: unknown;');
  }
  if (lines.length === 0) return extra === false ? NO_KEYS : ANY_KEYS;
  return `{\n${lines.map((l) => indent(l)).join('\n')}\n}`;
}

function propertyDoc(prop: { readonly [k: string]: unknown }): string {
  const parts: string[] = [];
  if (typeof prop.description === 'string' && prop.description.trim() !== '') parts.push(docText(prop.description));
  else if (typeof prop.title === 'string' && prop.title.trim() !== '') parts.push(docText(prop.title));
  if ('default' in prop) parts.push(`@default ${docText(JSON.stringify(prop.default) ?? 'undefined')}`);
  if (prop.deprecated === true) parts.push('@deprecated');
  if (parts.length === 0) return '';
  const body = parts.join('\n').split('\n');
  return body.length === 1 ? `/** ${body[0]} */\n` : `/**\n${body.map((l) => ` * ${l}`).join('\n')}\n */\n`;
}

function resolveLocal(ref: string, root: JsonSchema): unknown {
  if (!ref.startsWith('#')) return true;
  const segments = ref.slice(1).split('/').slice(1).map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur: unknown = root;
  for (const seg of ref === '#' ? [] : segments) {
    if ((!isObjectSchema(cur) && !Array.isArray(cur)) || !Object.hasOwn(cur, seg)) return true;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur ?? true;
}

function jsonLiteral(v: unknown): string {
  if (typeof v === 'string') return literal(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  return 'unknown';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.map((t) => (unique.length > 1 ? wrapUnionMember(t) : t)).join(' | ');
}

function joinIntersection(types: string[]): string {
  const unique = [...new Set(types)].filter((t) => t !== 'unknown');
  if (unique.length === 0) return 'unknown';
  return unique.length === 1 ? unique[0]! : unique.map(wrap).join(' & ');
}

/** Parenthesize unless the type has no top-level `|` or `&` (so `T[]` and `A & B` keep their meaning). */
function wrap(t: string): string {
  return topLevelOperators(t).size === 0 ? t : `(${t})`;
}

function wrapUnionMember(t: string): string {
  return topLevelOperators(t).has('&') ? `(${t})` : t;
}

function topLevelOperators(t: string): Set<string> {
  const ops = new Set<string>();
  if (!t.includes('|') && !t.includes('&')) return ops; // most types: no scan
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if ('{[(<'.includes(c)) depth++;
    else if ('}])>'.includes(c)) depth--;
    else if (depth === 0 && (c === '|' || c === '&')) ops.add(c);
  }
  return ops;
}

/** Every line two spaces in. */
function indent(text: string): string {
  return `  ${text.replaceAll('\n', '\n  ')}`;
}
