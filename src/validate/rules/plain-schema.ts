// Schemas in a subset of JSON Schema where the outcome of ajv is known without running it: loading and
// running ajv's compiler was a third of a `mcpgen check` of a small spec, and most tool schemas are plain
// (typed properties, enums, bounds, `$ref` to `$defs`). Anything outside the subset, or any doubt, goes to
// ajv as before, so diagnostics are the same either way (test/validate/plain-schema.test.ts compares).
import { isObjectSchema, walkSchema } from '../../common/json-schema.js';
import type { JsonObjectSchema } from '../spec-types.js';

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** Keywords with no type of their own (ajv never calls them misplaced). */
const UNTYPED = new Set(['type', 'enum', 'const', 'default', 'examples', 'title', 'description', '$comment', 'deprecated', 'readOnly', 'writeOnly', '$ref']);

/**
 * Typed keywords and the data type they act on: under ajv's strictTypes a keyword whose type the schema's
 * `type` does not include is a finding ("missing type … for keyword …"). `format` acts on numbers too.
 */
const TYPED: Readonly<Record<string, readonly string[]>> = {
  minimum: ['number'], maximum: ['number'], exclusiveMinimum: ['number'], exclusiveMaximum: ['number'], multipleOf: ['number'],
  // ajv applies `format` to numbers and strings (int32, int64, float, double are number formats).
  minLength: ['string'], maxLength: ['string'], pattern: ['string'], format: ['string', 'number'],
  items: ['array'], minItems: ['array'], maxItems: ['array'], uniqueItems: ['array'],
  properties: ['object'], required: ['object'], additionalProperties: ['object'], minProperties: ['object'], maxProperties: ['object'],
};

/** Applicators whose members describe the same data as their parent (and start from its types). */
const APPLICATORS = new Set(['anyOf', 'oneOf', 'allOf']);

/**
 * The types ajv checks a node's keywords against (its strictTypes `dataTypes`): its own, narrowed by the
 * context's; undefined where ajv would find a type outside the context ("type … not allowed by context").
 */
function inContext(own: string[] | undefined, context: readonly string[]): readonly string[] | undefined {
  if (own === undefined) return undefined;
  if (own.length === 0) return context;
  if (context.length === 0) return own;
  if (!own.every((t) => context.includes(t) || (t === 'integer' && context.includes('number')))) return undefined;
  return context.flatMap((t) => (own.includes(t) || (t === 'integer' && own.includes('number')) ? [t] : t === 'number' && own.includes('integer') ? ['integer'] : []));
}

function typesOf(node: JsonObjectSchema): string[] | undefined {
  const t = node.type;
  if (t === undefined) return [];
  const list = Array.isArray(t) ? t : [t];
  if (list.length === 0 || list.some((x) => typeof x !== 'string' || !SIMPLE_TYPES.has(x)) || new Set(list).size !== list.length) return undefined;
  return list as string[];
}

/** `integer` data is `number` data too (ajv's hasApplicableType). */
function applies(types: readonly string[], keywordTypes: readonly string[]): boolean {
  return keywordTypes.some((t) => types.includes(t) || (t === 'number' && types.includes('integer')));
}

const EXTENSION_NAME = /^x-[a-z0-9_$:-]*$/i;
const DEF_REF = /^#\/\$defs\/([A-Za-z0-9_.-]+)$/;

/**
 * True when ajv's strict compile (validate/rules/json-schema.ts STRICT_AJV_OPTIONS, `x-*` keywords
 * registered) of this self-contained schema finds nothing. Call it only once the schema has passed the
 * meta-schema and the keyword, format, pattern and `$ref` rules (checkSchema does): it assumes their checks.
 * False means "ask ajv", not "invalid".
 */
export function isPlainSchema(root: JsonObjectSchema, knownFormats: ReadonlySet<string>): boolean {
  const defs = isObjectSchema(root.$defs) ? root.$defs : {};
  // The data types a member of anyOf/oneOf/allOf starts from: its parent's (ajv's `it.dataTypes`). By the
  // member's path: one object may sit in two places, with different contexts.
  const context = new Map<string, readonly string[]>();
  let plain = true;
  walkSchema(root, ({ schema, path }) => {
    if (!plain || !isObjectSchema(schema)) return;
    // Most schemas have no applicator: no path key is built for them.
    const types = inContext(typesOf(schema), context.size === 0 ? [] : (context.get(JSON.stringify(path)) ?? []));
    if (types === undefined) return void (plain = false);
    for (const key of Object.keys(schema)) {
      if (key.startsWith('x-') && EXTENSION_NAME.test(key)) continue; // ajv.addKeyword accepts the name
      if (key === '$defs' && path.length === 0) continue;
      if (UNTYPED.has(key)) continue;
      if (APPLICATORS.has(key)) {
        const members = schema[key];
        if (!Array.isArray(members) || members.length === 0 || !members.every((m) => typeof m === 'boolean' || isObjectSchema(m))) return void (plain = false);
        members.forEach((_m, i) => context.set(JSON.stringify([...path, key, i]), types));
        continue;
      }
      const on = TYPED[key];
      if (on === undefined || !applies(types, on)) return void (plain = false);
    }
    if ('enum' in schema && (!Array.isArray(schema.enum) || schema.enum.length === 0)) plain = false;
    else if ('items' in schema && typeof schema.items !== 'boolean' && !isObjectSchema(schema.items)) plain = false;
    else if ('format' in schema && (typeof schema.format !== 'string' || !knownFormats.has(schema.format))) plain = false;
    else if ('pattern' in schema && !compiles(schema.pattern)) plain = false;
    else if ('required' in schema && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))) plain = false;
    else if (isObjectSchema(schema.properties) && Object.hasOwn(schema.properties, '__proto__')) plain = false;
    else if ('$ref' in schema) {
      const m = typeof schema.$ref === 'string' ? DEF_REF.exec(schema.$ref) : null;
      if (m === null || !Object.hasOwn(defs, m[1]!)) plain = false;
    }
  });
  return plain;
}

function compiles(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u').test('');
    return true;
  } catch {
    return false;
  }
}

/** Keywords that never reject a value. */
const ANNOTATION = new Set(['title', 'description', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'default', 'examples']);

/**
 * True when `value` is certainly valid against `schema` as ajv (non-strict) would judge it, for schemas made
 * of `type`, `enum`, `const`, numeric bounds and lengths. False means "ask ajv" (which also writes the
 * message), not "invalid".
 */
export function plainlyValid(schema: JsonObjectSchema, value: unknown): boolean {
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  for (const [key, v] of Object.entries(schema)) {
    if (ANNOTATION.has(key) || key.startsWith('x-')) continue;
    switch (key) {
      case 'type': {
        const types = Array.isArray(v) ? v : [v];
        if (!types.some((t) => hasType(value, t))) return false;
        break;
      }
      case 'enum':
        if (!Array.isArray(v) || !v.some((x) => samePrimitive(x, value))) return false;
        break;
      case 'const':
        if (!samePrimitive(v, value)) return false;
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value !== 'number') break;
        if (typeof v !== 'number' || !Number.isFinite(v)) return false;
        if (key === 'minimum' ? value < v : key === 'maximum' ? value > v : key === 'exclusiveMinimum' ? value <= v : value >= v) return false;
        break;
      case 'minLength':
      case 'maxLength': {
        if (typeof value !== 'string') break;
        if (typeof v !== 'number') return false;
        const length = [...value].length; // code points, as ajv's ucs2length counts
        if (key === 'minLength' ? length < v : length > v) return false;
        break;
      }
      case 'minItems':
      case 'maxItems':
        if (!Array.isArray(value)) break;
        if (typeof v !== 'number' || (key === 'minItems' ? value.length < v : value.length > v)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number';
    case 'integer': return Number.isInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return isObjectSchema(value);
    default: return false;
  }
}

/** Equal as ajv's deep equal says, for primitive values only (anything else: not known). */
function samePrimitive(a: unknown, b: unknown): boolean {
  return a === b && (a === null || typeof a !== 'object');
}
