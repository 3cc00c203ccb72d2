// JSON Schema → fast-check arbitrary of values the schema accepts. fast-check does the generating, the
// bias towards boundary values (min/max, empty strings and arrays, 0) and the shrinking; this only says
// which of its arbitraries each keyword maps to. What it maps loosely (allOf, not, if/then/else,
// dependent keywords) is caught afterwards: every value is checked with ajv before it is sent as valid.
import type { Arbitrary } from 'fast-check';

type FastCheck = typeof import('fast-check');
type Schema = Record<string, unknown>;

/** Below this depth optional properties are left out and arrays kept to their minimum: recursive schemas end. */
const MAX_DEPTH = 3;

interface Ctx {
  readonly fc: FastCheck;
  readonly root: Schema;
  readonly depth: number;
  readonly refs: number;
}

export function schemaArbitrary(fc: FastCheck, schema: unknown): Arbitrary<unknown> {
  return build(schema, { fc, root: isSchema(schema) ? schema : {}, depth: 0, refs: 0 });
}

function isSchema(s: unknown): s is Schema {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

/** `#/$defs/X`, `#/definitions/X` and other local JSON pointers; undefined for remote ones. */
export function resolveLocalRef(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').filter((p) => p !== '')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isSchema(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function build(schema: unknown, ctx: Ctx): Arbitrary<unknown> {
  const { fc } = ctx;
  if (schema === false) return fc.constant(undefined);
  if (!isSchema(schema)) return anyJson(fc);
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(ctx.root, schema.$ref);
    // A ref chain deeper than this is a recursive shape: stop at its smallest value.
    if (target === undefined || ctx.refs > 8) return anyJson(fc);
    return build({ ...(target as Schema), ...omit(schema, '$ref') }, { ...ctx, refs: ctx.refs + 1, depth: ctx.depth + 1 });
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const rest = omit(schema, 'oneOf', 'anyOf');
    return fc.oneof(...alternatives.map((a) => build(isSchema(a) ? { ...rest, ...a } : a, ctx)));
  }
  if (Array.isArray(schema.allOf)) return build(mergeAll(omit(schema, 'allOf'), schema.allOf as unknown[]), ctx);
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((t) => byType(t, schema, ctx)));
  return byType(types[0] ?? 'any', schema, ctx);
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  if (isSchema(schema.properties) || 'required' in schema || 'additionalProperties' in schema) return ['object'];
  if ('items' in schema || 'prefixItems' in schema) return ['array'];
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return ['string'];
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return ['number'];
  return [];
}

function byType(type: string, schema: Schema, ctx: Ctx): Arbitrary<unknown> {
  const { fc } = ctx;
  switch (type) {
    case 'string': return stringArb(fc, schema);
    case 'integer': return numberArb(fc, schema, true);
    case 'number': return numberArb(fc, schema, false);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': return arrayArb(schema, ctx);
    case 'object': return objectArb(schema, ctx);
    default: return anyJson(fc);
  }
}

function anyJson(fc: FastCheck): Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 });
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function stringArb(fc: FastCheck, schema: Schema): Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, num(schema.maxLength) ?? minLength + 24);
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, 'u'));
    } catch {
      // A pattern JavaScript cannot compile: plain strings, which ajv will mostly refuse (reported as not generated).
    }
  }
  const formatted = formatArb(fc, schema.format);
  if (formatted !== undefined) return formatted;
  // 'binary': any code point, so lengths count as JSON Schema counts them; half the strings stay ASCII.
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'binary' }));
}

function formatArb(fc: FastCheck, format: unknown): Arbitrary<string> | undefined {
  switch (format) {
    case 'email': return fc.emailAddress();
    case 'uri': case 'url': case 'iri': return fc.webUrl();
    case 'uuid': return fc.uuid();
    case 'ipv4': return fc.ipV4();
    case 'ipv6': return fc.ipV6();
    case 'hostname': return fc.domain();
    case 'date-time': return isoDate(fc).map((d) => d.toISOString());
    case 'date': return isoDate(fc).map((d) => d.toISOString().slice(0, 10));
    default: return undefined;
  }
}

function isoDate(fc: FastCheck) {
  return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true });
}

function numberArb(fc: FastCheck, schema: Schema, integer: boolean): Arbitrary<number> {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  let min = num(schema.minimum) ?? exMin;
  let max = num(schema.maximum) ?? exMax;
  const step = num(schema.multipleOf);
  if (integer || step !== undefined) {
    const unit = step ?? 1;
    const lo = min === undefined ? -1_000_000 : Math.ceil(min / unit) + (exMin !== undefined && min === exMin && Number.isInteger(min / unit) ? 1 : 0);
    const hi = max === undefined ? 1_000_000 : Math.floor(max / unit) - (exMax !== undefined && max === exMax && Number.isInteger(max / unit) ? 1 : 0);
    return fc.integer({ min: Math.max(lo, Number.MIN_SAFE_INTEGER), max: Math.min(Math.max(lo, hi), Number.MAX_SAFE_INTEGER) }).map((n) => (step === undefined ? n : n * unit));
  }
  min ??= -1e9;
  max ??= 1e9;
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exMin !== undefined && min === exMin, maxExcluded: exMax !== undefined && max === exMax });
}

function arrayArb(schema: Schema, ctx: Ctx): Arbitrary<unknown[]> {
  const { fc } = ctx;
  const minLength = num(schema.minItems) ?? 0;
  const maxLength = ctx.depth >= MAX_DEPTH ? minLength : Math.max(minLength, num(schema.maxItems) ?? minLength + 4);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]).map((s) => build(s, inner)) : [];
  const item = schema.items === undefined || schema.items === true ? anyJson(fc) : build(schema.items, inner);
  const rest = schema.uniqueItems === true
    ? fc.uniqueArray(item, { minLength: Math.max(0, minLength - prefix.length), maxLength: Math.max(0, maxLength - prefix.length), selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength: Math.max(0, minLength - prefix.length), maxLength: Math.max(0, maxLength - prefix.length) });
  return prefix.length === 0 ? rest : fc.tuple(fc.tuple(...prefix), rest).map(([p, r]) => [...p, ...r]);
}

function objectArb(schema: Schema, ctx: Ctx): Arbitrary<Record<string, unknown>> {
  const { fc } = ctx;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  const keys = Object.keys(properties).filter((k) => required.has(k) || ctx.depth < MAX_DEPTH);
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const k of keys) model[k] = build(properties[k], inner);
  // Required names the schema gives no property for still need a value.
  for (const k of required) model[k] ??= anyJson(fc);
  const record = fc.record(model, { requiredKeys: [...required] });
  const extra = schema.additionalProperties;
  if (extra === false || extra === undefined || ctx.depth >= MAX_DEPTH || (isSchema(schema.properties) && extra !== true && !isSchema(extra))) return record;
  const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in properties) && k !== '__proto__');
  const more = fc.dictionary(key, isSchema(extra) ? build(extra, inner) : anyJson(fc), { maxKeys: 3 });
  return fc.tuple(record, more).map(([r, m]) => ({ ...m, ...r }));
}

function omit(schema: Schema, ...keys: string[]): Schema {
  const out = { ...schema };
  for (const k of keys) delete out[k];
  return out;
}

/** allOf as one schema: properties and required united, other keywords from the later branch (ajv checks the rest). */
function mergeAll(base: Schema, parts: readonly unknown[]): Schema {
  let out: Schema = { ...base };
  for (const p of parts) {
    if (!isSchema(p)) continue;
    const props = { ...(isSchema(out.properties) ? out.properties : {}), ...(isSchema(p.properties) ? p.properties : {}) };
    const required = [...(Array.isArray(out.required) ? out.required : []), ...(Array.isArray(p.required) ? p.required : [])];
    out = { ...out, ...p, ...(Object.keys(props).length > 0 ? { properties: props } : {}), ...(required.length > 0 ? { required } : {}) };
  }
  return out;
}
