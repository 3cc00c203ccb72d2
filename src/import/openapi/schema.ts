// OpenAPI Schema Objects (Swagger 2.0, OpenAPI 3.0, 3.1) → JSON Schema 2020-12 as the spec format takes it.
// 3.0's `nullable` and boolean exclusive bounds become their 2020-12 forms, component `$ref`s point into the
// spec's `$defs`, and keywords JSON Schema does not know (discriminator, xml, example, x-…) are dropped,
// because the spec validator refuses unknown keywords (MCPG020).
import { KNOWN_KEYWORDS } from '../../common/json-schema.js';
import { knownFormats } from '../../validate/precompiled-validators.js';
import { branchTypes, formatType, note, nullAlternative, repairContradiction, repairInPlaceTypes, repairNullBeside, repairPattern, repairType, type Pointer, type SchemaSink } from './schema-repair.js';

type Obj = Record<string, unknown>;

const SINGLE = new Set(['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema']);
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const IN_PLACE = new Set(['not', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else']);
// `examples` are dropped too: OpenAPI examples are often invalid against their schemas (MCPG022 would refuse them).
const DROPPED = new Set(['examples', '$schema', '$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$vocabulary', '$defs']);
const KNOWN = new Set(KNOWN_KEYWORDS.filter((k) => !DROPPED.has(k)));
const FORMATS: ReadonlySet<string> = new Set(knownFormats as string[]);
// OpenAPI documents often leave `type` out where its keywords say it; ajv's strict mode (the SDK's, and
// check's MCPG019) refuses `properties` without `type: object`, so the type the keywords imply is stated.
const IMPLIED: readonly (readonly [string, readonly string[]])[] = [
  ['object', ['properties', 'additionalProperties', 'required', 'patternProperties', 'unevaluatedProperties', 'minProperties', 'maxProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas']],
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'unevaluatedItems']],
  ['string', ['minLength', 'maxLength', 'pattern']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
];

/** Rewrites a `$ref` of the OpenAPI document into one of the spec (see defs.ts). */
export type RefMap = (ref: string) => string;

/**
 * `at` is where the schema sits in the description (for the notes of what was repaired); `sink` collects
 * those notes and remembers each converted object's origin (schema-values.ts reads it).
 */
export function convertSchema(schema: unknown, refs: RefMap, at?: Pointer, sink?: SchemaSink, depth = 0, integer = false): unknown {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > 64) return {};
  const src = schema as Obj;
  if (typeof src.$ref === 'string') return withSiblings({ $ref: refs(src.$ref) }, src, at, sink);
  const out: Obj = {};
  // In-place subschemas of an integer (`not: {minimum: 65534, maximum: 65534}`, here.com) apply to integers.
  const inPlace = src.type === 'integer';
  const child = (value: unknown, ...path: (string | number)[]) => convertSchema(value, refs, at && [...at, ...path], sink, depth + 1, inPlace && IN_PLACE.has(String(path[0])));
  for (const [key, value] of Object.entries(src)) {
    if (!KNOWN.has(key) || key === '$ref') continue;
    if (SINGLE.has(key) && typeof value === 'object') out[key] = Array.isArray(value) ? { prefixItems: value.map((v, i) => child(v, key, i)) } : child(value, key);
    else if (MAP.has(key) && isObj(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, child(v, key, k)]));
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((v, i) => child(v, key, i));
    else out[key] = value;
  }
  if (src.type === 'file') out.type = 'string'; // Swagger 2.0 file: its bytes as a string
  repairType(out, at, sink);
  repairPattern(out, at, sink);
  repairNullBeside(out, at, sink);
  repairContradiction(out, at, sink);
  bounds(src, out);
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  undeclaredRequired(out);
  // GitHub's `deployment_status` has `format: uri, default: ""`: a default its own schema refuses (MCPG022).
  if (out.default === '' && typeof out.format === 'string') delete out.default;
  // A format ajv does not know (OpenAPI's open list: "uriref", "iso-country-code") is an annotation only.
  if (typeof out.format === 'string' && !FORMATS.has(out.format)) delete out.format;
  if (out.type === undefined) impliedType(out, at, sink, integer);
  else dropInapplicable(out);
  const result = src.nullable === true ? nullable(out) : out;
  repairInPlaceTypes(result, at, sink);
  if (at !== undefined) sink?.origins.set(result, at);
  return result;
}

/**
 * The type the keywords imply is stated, as strict ajv wants (`properties` → object). Beside `anyOf` or
 * `oneOf` whose branches all state their types, it is the union of those (the same values are valid);
 * otherwise, with alternatives, none is stated (check warns, MCPG190). A `format` alone implies its type.
 */
function impliedType(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined, integer: boolean): void {
  // Under an integer, bounds imply an integer: a "number" there is refused by strict ajv (strictTypes).
  const implied = IMPLIED.filter(([, keys]) => keys.some((k) => k in out)).map(([t]) => (t === 'number' && integer ? 'integer' : t));
  const alternatives = Array.isArray(out.anyOf) || Array.isArray(out.oneOf) || Array.isArray(out.allOf);
  if (alternatives) {
    const union = branchTypes(out);
    if (implied.length > 0 && union !== undefined && implied.every((t) => union.includes(t) || (t === 'number' && union.includes('integer')))) out.type = union.length === 1 ? union[0] : union;
    return;
  }
  if (implied.length > 0) out.type = implied.length === 1 ? implied[0] : implied;
  else if (typeof out.format === 'string') {
    out.type = formatType(out.format);
    note(sink, at && [...at, 'format'], `"format: ${out.format}" without a type: read as "type: ${String(out.type)}", the type the format applies to`);
  }
}

/** 3.1 allows keywords beside `$ref`; 2020-12 does too, so keep the annotations that matter to a model. */
function withSiblings(out: Obj, src: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): Obj {
  for (const key of ['description', 'title', 'default', 'deprecated', 'readOnly', 'writeOnly']) if (src[key] !== undefined) out[key] = src[key];
  const result = src.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
  if (at !== undefined) sink?.origins.set(result, at);
  return result;
}

/** OpenAPI 3.0 / JSON Schema draft 4: `exclusiveMinimum: true` qualifies `minimum`. */
function bounds(src: Obj, out: Obj): void {
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof src[flag] !== 'boolean') continue;
    delete out[flag];
    if (src[flag] === true && typeof src[bound] === 'number') {
      out[flag] = src[bound];
      delete out[bound];
    }
  }
}

/**
 * `required: [conclusion]` beside `properties` without it (GitHub's `checks/update`) means the same with
 * `conclusion: {}` declared; the spec validator refuses the first form (MCPG021).
 */
function undeclaredRequired(out: Obj): void {
  if (!Array.isArray(out.required) || !isObj(out.properties)) return;
  const props = out.properties;
  for (const name of out.required) if (typeof name === 'string' && !Object.hasOwn(props, name)) props[name] = {};
}

/** `minLength` on an integer (a real one, in train-travel's `cvc`) has no effect in JSON Schema, and strict ajv refuses it. */
function dropInapplicable(out: Obj): void {
  const types: unknown[] = Array.isArray(out.type) ? out.type : [out.type];
  for (const [type, keys] of IMPLIED) {
    if (types.includes(type) || (type === 'number' && types.includes('integer'))) continue;
    // Only keys that are there: a `delete` of an absent key still costs a call into V8's runtime, ~30 per schema.
    for (const k of keys) if (k in out) delete out[k];
  }
}

function nullable(out: Obj): Obj {
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  else if (out.type === undefined) return { anyOf: [out, { type: 'null' }] };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  // Beside `oneOf`/`anyOf` (nytimes.com's `GeoFacet`), null must also be one of the alternatives.
  nullAlternative(out);
  return out;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
