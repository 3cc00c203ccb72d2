// Canonical reading of a JSON Schema for comparison: `$ref`s followed (so moving a schema into `$defs` or
// rewriting an equivalent `$ref` is no change), `type` as a set, annotations ignored, and the finite value
// sets a schema admits spelled out when they are small (so `enum: [0, 1]` and `minimum: 0, maximum: 1` on
// an integer compare as equal).
export type Schema = boolean | { readonly [key: string]: unknown };
type Obj = { readonly [key: string]: unknown };

export const ALL_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;
export type TypeName = (typeof ALL_TYPES)[number];

/** The root a `#/...` pointer resolves against: the schema as it goes on the wire, its `$defs` bundled in. */
export interface SchemaRoot {
  readonly root: Schema;
}

const MAX_REF_HOPS = 64;

/** Follow `$ref` chains (local JSON pointers) until a schema without one; unresolvable refs read as `true`. */
export function deref(schema: Schema, root: SchemaRoot): Schema {
  let s = schema;
  for (let hops = 0; typeof s === 'object' && typeof s.$ref === 'string' && hops < MAX_REF_HOPS; hops++) {
    const target = pointer(root.root, s.$ref);
    if (target === undefined) return true;
    // Siblings of `$ref` (2020-12) still apply: keep them, the target's keys under them.
    const { $ref: _ref, ...rest } = s;
    s = Object.keys(rest).length === 0 ? target : mergeAll([target, rest]);
  }
  return s;
}

function pointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Obj)[key];
  }
  return typeof node === 'boolean' || (node !== null && typeof node === 'object') ? (node as Schema) : undefined;
}

/** `allOf` of plain keyword objects merged into one (the keywords this engine compares combine as "both"). */
function mergeAll(parts: readonly Schema[]): Schema {
  const out: Record<string, unknown> = {};
  for (const p of parts) {
    if (p === false) return false;
    if (p === true) continue;
    for (const [k, v] of Object.entries(p)) out[k] = k in out ? combine(k, out[k], v) : v;
  }
  return out;
}

function combine(key: string, a: unknown, b: unknown): unknown {
  if (key === 'required' && Array.isArray(a) && Array.isArray(b)) return [...new Set([...a, ...b])];
  if (key === 'properties' && isObj(a) && isObj(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? { allOf: [out[k], v] } : v;
    return out;
  }
  if ((key === 'minimum' || key === 'minLength' || key === 'minItems' || key === 'minProperties') && typeof a === 'number' && typeof b === 'number') return Math.max(a, b);
  if ((key === 'maximum' || key === 'maxLength' || key === 'maxItems' || key === 'maxProperties') && typeof a === 'number' && typeof b === 'number') return Math.min(a, b);
  if (key === 'type') {
    const both = typeSet(a).filter((t) => typeSet(b).includes(t));
    return both;
  }
  if (key === 'additionalProperties' && (a === false || b === false)) return false;
  return b;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The schema with refs followed and a plain `allOf` folded in: what the subset engine reads. */
export function canonical(schema: Schema, root: SchemaRoot): Schema {
  let s = deref(schema, root);
  if (typeof s === 'object' && Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    s = mergeAll([rest, ...(allOf as Schema[]).map((p) => canonical(p, root))]);
  }
  return s;
}

/** The `type` keyword as a sorted set; `undefined` when the schema does not constrain the type. */
export function typesOf(schema: Schema): TypeName[] | undefined {
  if (typeof schema === 'boolean') return schema ? undefined : [];
  return schema.type === undefined ? undefined : typeSet(schema.type);
}

function typeSet(t: unknown): TypeName[] {
  const list = Array.isArray(t) ? t : [t];
  return ALL_TYPES.filter((x) => list.includes(x));
}

/** Does a value of JSON type `t` pass a `type` set? (`integer` values are also `number`s.) */
export function typeAllows(types: readonly TypeName[] | undefined, t: TypeName): boolean {
  if (types === undefined) return true;
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

const MAX_FINITE = 256;

/**
 * Every value the schema admits, when that is a small finite set (enum, const, boolean, null, a short
 * integer range, an empty string/number range); `undefined` otherwise. The caller still checks each value
 * against every keyword of the schema, so this may over-approximate.
 */
export function finiteCandidates(schema: Schema): unknown[] | undefined {
  if (schema === false) return [];
  if (schema === true) return undefined;
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return [...schema.enum];
  const types = typesOf(schema);
  if (types === undefined) return undefined;
  const out: unknown[] = [];
  for (const t of types) {
    const values = finiteOfType(schema, t);
    if (values === undefined) return undefined;
    out.push(...values);
  }
  return out.length > MAX_FINITE ? undefined : out;
}

function finiteOfType(s: Obj, t: TypeName): unknown[] | undefined {
  if (t === 'null') return [null];
  if (t === 'boolean') return [false, true];
  if (t === 'integer' || t === 'number') {
    const lo = lowerBound(s);
    const hi = upperBound(s);
    if (lo === undefined || hi === undefined) return undefined;
    const from = Math.ceil(lo.value + (lo.exclusive && Number.isInteger(lo.value) ? 1 : 0));
    const to = Math.floor(hi.value - (hi.exclusive && Number.isInteger(hi.value) ? 1 : 0));
    if (t === 'number' && !(lo.value === hi.value && !lo.exclusive && !hi.exclusive) && lo.value < hi.value) return undefined;
    if (t === 'number') return lo.value === hi.value && !lo.exclusive && !hi.exclusive ? [lo.value] : [];
    if (to - from + 1 > MAX_FINITE) return undefined;
    return to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }
  if (t === 'string' && typeof s.minLength === 'number' && typeof s.maxLength === 'number' && s.minLength > s.maxLength) return [];
  if (t === 'array' && typeof s.minItems === 'number' && typeof s.maxItems === 'number' && s.minItems > s.maxItems) return [];
  return undefined;
}

export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

/**
 * Integers beyond ±(2^53−1) do not interoperate (I-JSON, RFC 7493 §2.2: JSON parsers read them as doubles),
 * and zod 4 writes those limits on every `.int()`: on a schema that admits integers only (or null), such a
 * bound is no bound.
 */
function safeIntegerLimit(s: Obj, value: number): boolean {
  if (Math.abs(value) < Number.MAX_SAFE_INTEGER) return false;
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => t !== 'null');
  return types.length > 0 && types.every((t) => t === 'integer');
}

export function lowerBound(s: Obj): Bound | undefined {
  const b = declaredLowerBound(s);
  return b !== undefined && b.value <= -Number.MAX_SAFE_INTEGER && safeIntegerLimit(s, b.value) ? undefined : b;
}

export function upperBound(s: Obj): Bound | undefined {
  const b = declaredUpperBound(s);
  return b !== undefined && b.value >= Number.MAX_SAFE_INTEGER && safeIntegerLimit(s, b.value) ? undefined : b;
}

function declaredLowerBound(s: Obj): Bound | undefined {
  const inc = typeof s.minimum === 'number' ? s.minimum : undefined;
  const exc = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  if (inc === undefined && exc === undefined) return undefined;
  if (exc !== undefined && (inc === undefined || exc >= inc)) return { value: exc, exclusive: true };
  return { value: inc!, exclusive: false };
}

function declaredUpperBound(s: Obj): Bound | undefined {
  const inc = typeof s.maximum === 'number' ? s.maximum : undefined;
  const exc = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  if (inc === undefined && exc === undefined) return undefined;
  if (exc !== undefined && (inc === undefined || exc <= inc)) return { value: exc, exclusive: true };
  return { value: inc!, exclusive: false };
}
