// Traversal and $ref handling for the JSON Schemas inside a spec (2020-12).
import type { JsonSchema, JsonObjectSchema } from '../validate/spec-types.js';

export type SchemaPath = readonly (string | number)[];

const SINGLE = ['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'] as const;
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

export const KNOWN_KEYWORDS: readonly string[] = [
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs',
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties',
  'minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'dependentSchemas', 'prefixItems', 'items', 'contains', 'properties', 'patternProperties', 'additionalProperties',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'format', 'contentEncoding', 'contentMediaType',
  'contentSchema', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
];

export interface SchemaVisit {
  readonly schema: JsonSchema;
  readonly path: SchemaPath;
  /** Reached from the root through `properties` keys only (the x-mcp-header rule). */
  readonly propertiesOnly: boolean;
}

export function isObjectSchema(s: unknown): s is JsonObjectSchema {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

/** Depth-first walk over every subschema; stops descending below `maxDepth` (hostile nesting). */
export function walkSchema(root: JsonSchema, visit: (v: SchemaVisit) => void, maxDepth = 64): void {
  const go = (schema: unknown, path: SchemaPath, propertiesOnly: boolean, depth: number): void => {
    if (typeof schema !== 'boolean' && !isObjectSchema(schema)) return;
    visit({ schema, path, propertiesOnly });
    if (!isObjectSchema(schema) || depth >= maxDepth || !hasSubschemaKeyword(schema)) return;
    for (const k of SINGLE) if (k in schema) go(schema[k], [...path, k], false, depth + 1);
    for (const k of MAP) {
      const m = schema[k];
      if (isObjectSchema(m)) for (const [name, sub] of Object.entries(m)) go(sub, [...path, k, name], propertiesOnly && k === 'properties', depth + 1);
    }
    for (const k of LIST) {
      const l = schema[k];
      if (Array.isArray(l)) l.forEach((sub, i) => go(sub, [...path, k, i], false, depth + 1));
    }
  };
  go(root, [], true, 0);
}

const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([...SINGLE, ...MAP, ...LIST]);

/** Where walkSchema finds subschemas: a keyword's value (single), each value of its map, each entry of its list. */
export const SUBSCHEMA_PLACES: { readonly single: readonly string[]; readonly map: readonly string[]; readonly list: readonly string[] } = { single: SINGLE, map: MAP, list: LIST };

/** Most subschemas are leaves (`{ type: string }`): one pass over their few keys instead of 19 lookups. */
function hasSubschemaKeyword(schema: object): boolean {
  for (const k in schema) if (SUBSCHEMA_KEYWORDS.has(k)) return true;
  return false;
}

export type RefTarget =
  | { readonly kind: 'local'; readonly schema: JsonSchema }
  | { readonly kind: 'spec'; readonly name: string; readonly schema: JsonSchema }
  | { readonly kind: 'unresolved'; readonly reason: string };

/**
 * Resolve a `$ref` written in a tool schema (or in a spec `$defs` entry): `#`, `#/json/pointer`,
 * `#/$defs/Name` (the schema's own `$defs` first, then the spec's), or `#anchor`.
 * Anything that is not a fragment would need a fetch, which MCP forbids by default.
 */
export function resolveRef(ref: string, root: JsonSchema, specDefs: ReadonlyMap<string, JsonSchema>): RefTarget {
  if (!ref.startsWith('#')) return { kind: 'unresolved', reason: 'only references inside the spec ("#/$defs/Name") are allowed; MCP clients must not fetch external schemas' };
  const fragment = ref.slice(1);
  if (fragment !== '' && !fragment.startsWith('/')) {
    let found: JsonSchema | undefined;
    const search = (s: JsonSchema) => walkSchema(s, (v) => { if (isObjectSchema(v.schema) && v.schema.$anchor === fragment) found ??= v.schema; });
    search(root);
    for (const d of specDefs.values()) if (found === undefined) search(d);
    return found !== undefined ? { kind: 'local', schema: found } : { kind: 'unresolved', reason: `no $anchor "${fragment}"` };
  }
  const segments = fragment === '' ? [] : fragment.slice(1).split('/').map(decodePointer);
  if (segments[0] === '$defs' && segments.length >= 2) {
    const name = segments[1]!;
    const localDefs = isObjectSchema(root) && isObjectSchema(root.$defs) ? root.$defs : undefined;
    if (localDefs === undefined || !Object.hasOwn(localDefs, name)) {
      const def = specDefs.get(name);
      if (def === undefined) return { kind: 'unresolved', reason: `no $defs entry "${name}"` };
      const target = pointer(def, segments.slice(2));
      return target === undefined ? { kind: 'unresolved', reason: `"${ref}" points to nothing` } : { kind: 'spec', name, schema: target };
    }
  }
  const target = pointer(root, segments);
  return target === undefined ? { kind: 'unresolved', reason: `"${ref}" points to nothing` } : { kind: 'local', schema: target };
}

function decodePointer(s: string): string {
  return decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');
}

function pointer(root: JsonSchema, segments: readonly string[]): JsonSchema | undefined {
  let cur: unknown = root;
  for (const seg of segments) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObjectSchema(cur) && Object.hasOwn(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return typeof cur === 'boolean' || isObjectSchema(cur) ? cur : undefined;
}

/** Names of spec `$defs` a schema needs, transitively, in first-use order. */
export function specDefsUsed(root: JsonSchema, specDefs: ReadonlyMap<string, JsonSchema>): string[] {
  const used: string[] = [];
  const use = (name: string) => {
    if (used.includes(name)) return;
    used.push(name);
    const def = specDefs.get(name);
    if (def !== undefined) for (const next of defRefs(def, specDefs)) use(next);
  };
  for (const name of specRefs(root, root, specDefs)) use(name);
  return used;
}

/** The spec `$defs` names a schema's `$ref`s resolve to (against `context`), in walk order, repeats kept. */
function specRefs(schema: JsonSchema, context: JsonSchema, specDefs: ReadonlyMap<string, JsonSchema>): string[] {
  const names: string[] = [];
  walkSchema(schema, (v) => {
    if (!isObjectSchema(v.schema) || typeof v.schema.$ref !== 'string') return;
    const t = resolveRef(v.schema.$ref, context, specDefs);
    if (t.kind === 'spec') names.push(t.name);
  });
  return names;
}

/**
 * specRefs of a spec def, walked once per def and `$defs` map rather than again for every tool that uses
 * it (GitHub's tools share hundreds). Inside a spec def, "#/$defs/X" means the spec's X: an empty root.
 */
function defRefs(def: JsonSchema, specDefs: ReadonlyMap<string, JsonSchema>): string[] {
  let byDef = defRefsByMap.get(specDefs);
  if (byDef === undefined) defRefsByMap.set(specDefs, (byDef = new Map()));
  let names = byDef.get(def);
  if (names === undefined) byDef.set(def, (names = specRefs(def, {}, specDefs)));
  return names;
}

const defRefsByMap = new WeakMap<ReadonlyMap<string, JsonSchema>, Map<JsonSchema, string[]>>();

/**
 * A self-contained copy of a tool schema: the spec `$defs` it uses are copied into its own `$defs`,
 * so `#/$defs/Name` resolves on the wire exactly as it did in the spec. Everything else is untouched.
 * `usedDefs`: specDefsUsed, or what the caller knows it to return for this schema.
 */
export function bundleSchema(root: JsonObjectSchema, specDefs: ReadonlyMap<string, JsonSchema>, usedDefs: (root: JsonObjectSchema) => string[] = (r) => specDefsUsed(r, specDefs)): JsonObjectSchema {
  // The validator bundles each schema for several rules; spec values are never changed once loaded.
  let byRoot = bundles.get(specDefs);
  if (byRoot === undefined) bundles.set(specDefs, (byRoot = new WeakMap()));
  let bundled = byRoot.get(root);
  if (bundled === undefined) byRoot.set(root, (bundled = bundleOnce(root, specDefs, usedDefs(root))));
  return bundled;
}

const bundles = new WeakMap<ReadonlyMap<string, JsonSchema>, WeakMap<JsonObjectSchema, JsonObjectSchema>>();

function bundleOnce(root: JsonObjectSchema, specDefs: ReadonlyMap<string, JsonSchema>, used: readonly string[]): JsonObjectSchema {
  if (used.length === 0) return root;
  const own = isObjectSchema(root.$defs) ? root.$defs : {};
  // fromEntries defines own properties: an entry named `__proto__` stays data, not a prototype.
  const $defs = Object.fromEntries([...Object.entries(own), ...used.filter((name) => !Object.hasOwn(own, name)).map((name) => [name, specDefs.get(name)])]);
  return { ...root, $defs };
}

/**
 * Whether every value a schema accepts is a JSON object, as far as its root alone shows: `type: object`
 * (or `[object]`), a `$ref` to such a schema, an `allOf` with such a member, an `anyOf`/`oneOf` of only
 * such members. `why` says what the root allows instead, for the diagnostic. A `$ref` cycle is not one.
 */
export function objectRoot(schema: JsonSchema, root: JsonSchema, specDefs: ReadonlyMap<string, JsonSchema>, seen: ReadonlySet<unknown> = new Set()): { readonly object: true } | { readonly object: false; readonly why: string } {
  const yes = { object: true } as const;
  if (!isObjectSchema(schema)) return { object: false, why: schema === false ? 'no value at all' : 'any value' };
  if (seen.has(schema)) return { object: false, why: 'a $ref cycle' };
  const next = new Set(seen).add(schema);
  const { type } = schema;
  if (type === 'object' || (Array.isArray(type) && type.length > 0 && type.every((t) => t === 'object'))) return yes;
  if (type !== undefined) return { object: false, why: `type ${JSON.stringify(type)}` };
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, root, specDefs);
    // Inside a spec def, "#" means that def: resolve what it points at against an empty root (as specDefsUsed).
    const verdict = target.kind === 'unresolved' ? { object: false as const, why: 'an unresolved $ref' } : objectRoot(target.schema, target.kind === 'spec' ? {} : root, specDefs, next);
    if (verdict.object) return yes;
    if (!Array.isArray(schema.allOf)) return { object: false, why: `${JSON.stringify(schema.$ref)}, which allows ${verdict.why}` };
  }
  if (Array.isArray(schema.allOf) && schema.allOf.some((s) => objectRoot(s as JsonSchema, root, specDefs, next).object)) return yes;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      const other = list.map((s) => objectRoot(s as JsonSchema, root, specDefs, next)).find((v) => !v.object);
      return other === undefined ? yes : { object: false, why: `an ${key} member that allows ${(other as { why: string }).why}` };
    }
  }
  return { object: false, why: 'no "type"' };
}
