import { readPackageJson } from '../common/package-files.js';
import { KNOWN_KEYWORDS } from '../common/json-schema.js';
import type { JsonPath } from '../parse/source.js';

/**
 * What the spec format's JSON Schema (schema/mcpgen.schema.json) says about a place in a spec: its
 * description, allowed keys and values. Below a tool's `input`/`output`, an elicitation `schema`, a
 * `$defs` entry or a property, the place is a JSON Schema, described by JSON_SCHEMA_KEYWORDS.
 */
interface SchemaNode {
  readonly description?: string | undefined;
  readonly properties?: Record<string, SchemaNode>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly $ref?: string;
  readonly oneOf?: readonly SchemaNode[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly type?: string | readonly string[];
}

let root: (SchemaNode & { $defs: Record<string, SchemaNode> }) | undefined;
function spec(): SchemaNode & { $defs: Record<string, SchemaNode> } {
  return (root ??= readPackageJson('schema/mcpgen.schema.json') as SchemaNode & { $defs: Record<string, SchemaNode> });
}

function deref(node: SchemaNode | undefined): SchemaNode | undefined {
  let n = node;
  for (let i = 0; i < 8 && n?.$ref !== undefined; i++) {
    const target = spec().$defs[n.$ref.replace('#/$defs/', '')];
    n = target === undefined ? undefined : { ...target, description: n.description ?? target.description };
  }
  return n;
}

/** Every shape a place may take (a `oneOf`'s branches, dereferenced). */
function shapes(node: SchemaNode | undefined): SchemaNode[] {
  const n = deref(node);
  if (n === undefined) return [];
  return n.oneOf !== undefined ? [n, ...n.oneOf.flatMap((b) => shapes(b))] : [n];
}

/** Keys whose values are JSON Schemas in the spec format. */
const SCHEMA_PLACES = new Set(['input', 'output', 'schema']);
/** JSON Schema keywords whose value is a map of schemas, a schema, or a list of schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

export type Place =
  | { readonly kind: 'spec'; readonly node: SchemaNode | undefined }
  | { readonly kind: 'json-schema' }
  | { readonly kind: 'other' };

/** What the value at `path` is: a place of the spec format, a JSON Schema, or data inside one. */
export function placeAt(path: JsonPath): Place {
  let node: SchemaNode | undefined = spec();
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (i === 1 && path[0] === '$defs') return jsonSchemaFrom(path.slice(2));
    const next: SchemaNode | undefined = childOf(node, seg);
    if (typeof seg === 'string' && SCHEMA_PLACES.has(seg) && shapes(next).some((s) => s.type === 'object' && s.properties === undefined)) return jsonSchemaFrom(path.slice(i + 1));
    if (next === undefined) return { kind: 'other' };
    node = next;
  }
  return { kind: 'spec', node };
}

function childOf(node: SchemaNode | undefined, seg: string | number): SchemaNode | undefined {
  for (const s of shapes(node)) {
    if (typeof seg === 'number') {
      if (s.items !== undefined) return s.items;
    } else if (s.properties?.[seg] !== undefined) return s.properties[seg];
  }
  for (const s of shapes(node)) if (typeof seg === 'string' && typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

/** Inside a JSON Schema: a schema again, or a keyword's data (`enum` values, `required` names…). */
function jsonSchemaFrom(rest: JsonPath): Place {
  let schema = true;
  for (let i = 0; i < rest.length; i++) {
    const seg = rest[i]!;
    if (!schema) return { kind: 'other' };
    if (typeof seg === 'string' && SCHEMA_MAPS.has(seg)) {
      if (i + 1 >= rest.length) return { kind: 'other' };
      i++;
      continue;
    }
    if (typeof seg === 'string' && SCHEMA_ONE.has(seg)) continue;
    if (typeof seg === 'string' && SCHEMA_LIST.has(seg)) {
      i++;
      continue;
    }
    schema = false;
  }
  return schema ? { kind: 'json-schema' } : { kind: 'other' };
}

/** The description of the key at `path` (the place its value fills). */
export function describeKey(path: JsonPath): string | undefined {
  const key = path[path.length - 1];
  const parent = placeAt(path.slice(0, -1));
  if (parent.kind === 'json-schema' && typeof key === 'string') return JSON_SCHEMA_KEYWORDS[key];
  const place = placeAt(path);
  if (place.kind !== 'spec') return undefined;
  for (const s of [place.node, ...shapes(place.node)]) if (s?.description !== undefined) return s.description;
  return undefined;
}

/** Keys a mapping at `path` may hold, with their descriptions. */
export function keysAt(path: JsonPath): { key: string; description?: string }[] {
  const place = placeAt(path);
  if (place.kind === 'json-schema') return Object.entries(JSON_SCHEMA_KEYWORDS).map(([key, description]) => ({ key, description }));
  if (place.kind !== 'spec') return [];
  const out = new Map<string, string | undefined>();
  for (const s of shapes(place.node)) {
    for (const [key, sub] of Object.entries(s.properties ?? {})) if (!out.has(key)) out.set(key, sub.description ?? deref(sub)?.description);
  }
  return [...out].map(([key, description]) => (description === undefined ? { key } : { key, description }));
}

/** Values the spec format allows at `path` (enums and consts, booleans). */
export function valuesAt(path: JsonPath): string[] {
  const place = placeAt(path);
  if (place.kind !== 'spec') return [];
  const out = new Set<string>();
  for (const s of shapes(place.node)) {
    for (const v of s.enum ?? []) out.add(String(v));
    if (s.const !== undefined) out.add(String(s.const));
    if (s.type === 'boolean') ['true', 'false'].forEach((b) => out.add(b));
  }
  return [...out];
}

/** One line per JSON Schema 2020-12 keyword (its specification's wording, shortened), and mcpgen's own. */
export const JSON_SCHEMA_KEYWORDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(KNOWN_KEYWORDS.map((k) => [k, `JSON Schema 2020-12 keyword \`${k}\`.`])),
  type: 'The kind of value: string, number, integer, boolean, object, array or null (or a list of them).',
  properties: 'The schema of each named property of an object.',
  required: 'The properties an object must have (a list of names, beside `properties`).',
  additionalProperties: 'The schema of properties not named in `properties` (`false`: none allowed).',
  items: 'The schema of every item of an array.',
  enum: 'The only values allowed.',
  const: 'The one value allowed.',
  format: 'A named format of a string (date-time, email, uri, uuid…); unknown formats are not checked.',
  description: 'What the value means; models read it.',
  default: 'The value taken when the argument is left out.',
  $ref: 'Another schema this one is: `#/$defs/Name` names a shared schema of the spec.',
  $defs: 'Schemas this one names locally.',
  pattern: 'A regular expression (ECMA-262, unicode) a string must match.',
  minimum: 'The smallest number allowed.',
  maximum: 'The largest number allowed.',
  minLength: 'The fewest characters a string may have.',
  maxLength: 'The most characters a string may have.',
  anyOf: 'The value matches at least one of these schemas.',
  oneOf: 'The value matches exactly one of these schemas.',
  allOf: 'The value matches all of these schemas.',
  'x-mcp-header': "mcpgen: mirror this argument in the HTTP request header `Mcp-Param-<value>` (Streamable HTTP, 2026-07-28), so gateways can route on it without reading the body. Only on a property reached from `input` through `properties`, of type string, integer or boolean.",
};

export const SIMPLE_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
