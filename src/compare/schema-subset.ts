// The schema subset engine: is every value valid under schema `a` also valid under `b`? For a tool input
// a = old, b = new (a "no" breaks callers); for an output a = new, b = old (a "no" breaks typed clients).
// Each reason is a violation with a neutral kind; rules.ts names it per direction.
//
// Assumption (documented in docs/breaking-changes.md): a property an open object does not declare is not
// part of the contract, so declaring a new optional property is safe even without additionalProperties: false.
import { ALL_TYPES, canonical, finiteCandidates, lowerBound, typeAllows, typesOf, upperBound, type Bound, type Schema, type SchemaRoot, type TypeName } from './schema-canonical.js';
import { accepts, deepEqual, jsonType } from './schema-values.js';

export type ViolationKind =
  | 'type' | 'enum' | 'required' | 'property' | 'additionalProperties' | 'minimum' | 'maximum' | 'multipleOf'
  | 'minLength' | 'maxLength' | 'pattern' | 'patternReplaced' | 'format' | 'formatReplaced' | 'minItems' | 'maxItems' | 'uniqueItems' | 'propertyCount' | 'unproven';

export interface Violation {
  readonly kind: ViolationKind;
  /** Schema path (keywords and property names) from the schema root. */
  readonly path: readonly (string | number)[];
  readonly detail: string;
}

type Obj = { readonly [key: string]: unknown };
type Path = readonly (string | number)[];

interface Ctx {
  readonly a: SchemaRoot;
  readonly b: SchemaRoot;
  readonly out: Violation[];
  depth: number;
}

/** Why some value valid under `a` is invalid under `b`; empty when `a` ⊆ `b`. */
export function subsetViolations(a: Schema, b: Schema, roots?: { a?: Schema; b?: Schema }): Violation[] {
  const ctx: Ctx = { a: { root: roots?.a ?? a }, b: { root: roots?.b ?? b }, out: [], depth: 0 };
  subset(a, b, ctx, []);
  return ctx.out;
}

const MAX_DEPTH = 48; // recursive $refs: stop descending; what was compared so far stands

function subset(rawA: Schema, rawB: Schema, ctx: Ctx, path: Path): void {
  if (ctx.depth > MAX_DEPTH) return;
  ctx.depth++;
  try {
    compare(canonical(rawA, ctx.a), canonical(rawB, ctx.b), ctx, path);
  } finally {
    ctx.depth--;
  }
}

function push(ctx: Ctx, kind: ViolationKind, path: Path, detail: string): void {
  ctx.out.push({ kind, path, detail });
}

function compare(a: Schema, b: Schema, ctx: Ctx, path: Path): void {
  if (b === true || a === false) return;
  if (b === false) return push(ctx, 'type', path, 'the schema now rejects every value');
  const ao: Obj = a === true ? {} : a;
  const finite = finiteCandidates(ao);
  if (finite !== undefined) return compareFinite(ao, b, finite, ctx, path);
  if (unions(ao, b, ctx, path)) return;
  const common = compareTypes(ao, b, ctx, path);
  if ('const' in b || Array.isArray(b.enum)) return push(ctx, 'enum', path, 'values are now limited to an enum or const');
  if (common.includes('integer') || common.includes('number')) compareNumbers(ao, b, !common.includes('number'), ctx, path);
  if (common.includes('string')) compareStrings(ao, b, ctx, path);
  if (common.includes('array')) compareArrays(ao, b, ctx, path);
  if (common.includes('object')) compareObjects(ao, b, ctx, path);
  for (const k of UNMODELLED) if (b[k] !== undefined && !deepEqual(ao[k], b[k])) push(ctx, 'unproven', [...path, k], `\`${k}\` changed (not compared value by value: treated as narrowing)`);
}

const UNMODELLED = ['not', 'if', 'then', 'else', 'contains', 'propertyNames', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains'];

/** `a` is a small finite set: test each of its values against `b`. */
function compareFinite(a: Obj, b: Obj, values: readonly unknown[], ctx: Ctx, path: Path): void {
  for (const v of values) {
    if (!accepts(a, v, ctx.a) || accepts(b, v, ctx.b)) continue;
    push(ctx, failingKind(b, v), path, `${JSON.stringify(v)} is no longer accepted`);
  }
}

function failingKind(b: Obj, v: unknown): ViolationKind {
  if (!typeAllows(typesOf(b), jsonType(v))) return 'type';
  if ('const' in b || Array.isArray(b.enum)) return 'enum';
  if (typeof v === 'number') return lowerBound(b) && !(upperBound(b) && v > upperBound(b)!.value) ? 'minimum' : 'maximum';
  return 'unproven';
}

/** anyOf/oneOf: each branch of `a` must fit `b`; `a` must fit one branch of `b`. True when handled. */
function unions(a: Obj, b: Obj, ctx: Ctx, path: Path): boolean {
  const aBranches = (a.anyOf ?? a.oneOf) as Schema[] | undefined;
  if (Array.isArray(aBranches)) {
    const { anyOf: _x, oneOf: _y, ...rest } = a;
    aBranches.forEach((br, i) => subset({ allOf: [rest, br] }, b, ctx, [...path, a.anyOf ? 'anyOf' : 'oneOf', i]));
    return true;
  }
  const bBranches = (b.anyOf ?? b.oneOf) as Schema[] | undefined;
  if (!Array.isArray(bBranches)) return false;
  const { anyOf: _x, oneOf: _y, ...bRest } = b;
  subset(a, bRest, ctx, path);
  const fits = bBranches.some((br) => subsetViolations(a, br, { a: ctx.a.root, b: ctx.b.root }).length === 0);
  if (!fits) push(ctx, 'unproven', path, 'no single `anyOf`/`oneOf` branch accepts every value the schema accepted');
  return true;
}

function compareTypes(a: Obj, b: Obj, ctx: Ctx, path: Path): TypeName[] {
  const ta = typesOf(a) ?? [...ALL_TYPES];
  const tb = typesOf(b);
  const lost = ta.filter((t) => !typeAllows(tb, t));
  if (lost.length > 0) push(ctx, 'type', [...path, 'type'], `type ${lost.join(', ')} is no longer accepted (now ${(tb ?? []).join(', ') || 'none'})`);
  return ta.filter((t) => typeAllows(tb, t));
}

/** For integers only, bounds as inclusive integers so `exclusiveMinimum: 0` equals `minimum: 1`. */
function norm(bound: Bound | undefined, intOnly: boolean, dir: 1 | -1): Bound | undefined {
  if (bound === undefined || !intOnly) return bound;
  const v = dir === 1 ? (bound.exclusive ? Math.floor(bound.value) + 1 : Math.ceil(bound.value)) : bound.exclusive ? Math.ceil(bound.value) - 1 : Math.floor(bound.value);
  return { value: v, exclusive: false };
}

function tighter(a: Bound | undefined, b: Bound | undefined, dir: 1 | -1): boolean {
  if (b === undefined) return false;
  if (a === undefined) return true;
  if (a.value !== b.value) return dir === 1 ? b.value > a.value : b.value < a.value;
  return b.exclusive && !a.exclusive;
}

function compareNumbers(a: Obj, b: Obj, intOnly: boolean, ctx: Ctx, path: Path): void {
  if (tighter(norm(lowerBound(a), intOnly, 1), norm(lowerBound(b), intOnly, 1), 1)) push(ctx, 'minimum', [...path, 'minimum'], `lower bound raised to ${lowerBound(b)!.value}`);
  if (tighter(norm(upperBound(a), intOnly, -1), norm(upperBound(b), intOnly, -1), -1)) push(ctx, 'maximum', [...path, 'maximum'], `upper bound lowered to ${upperBound(b)!.value}`);
  const mb = b.multipleOf;
  if (typeof mb === 'number' && !(intOnly && mb === 1) && !(typeof a.multipleOf === 'number' && Number.isInteger(a.multipleOf / mb))) push(ctx, 'multipleOf', [...path, 'multipleOf'], `must now be a multiple of ${mb}`);
}

function count(a: Obj, b: Obj, min: string, max: string, ctx: Ctx, path: Path, kinds: [ViolationKind, ViolationKind]): void {
  const amin = typeof a[min] === 'number' ? (a[min] as number) : 0;
  const bmin = typeof b[min] === 'number' ? (b[min] as number) : 0;
  if (bmin > amin) push(ctx, kinds[0], [...path, min], `${min} raised from ${amin} to ${bmin}`);
  const amax = typeof a[max] === 'number' ? (a[max] as number) : Infinity;
  const bmax = typeof b[max] === 'number' ? (b[max] as number) : Infinity;
  if (bmax < amax && bmax >= amin) push(ctx, kinds[1], [...path, max], `${max} lowered${amax === Infinity ? '' : ` from ${amax}`} to ${bmax}`);
  else if (bmax < amax) push(ctx, kinds[1], [...path, max], `${max} lowered to ${bmax}`);
}

function compareStrings(a: Obj, b: Obj, ctx: Ctx, path: Path): void {
  count(a, b, 'minLength', 'maxLength', ctx, path, ['minLength', 'maxLength']);
  // A pattern (format) where there was none narrows; one replaced by another is not proven either way.
  if (typeof b.pattern === 'string' && b.pattern !== a.pattern) push(ctx, typeof a.pattern === 'string' ? 'patternReplaced' : 'pattern', [...path, 'pattern'], `pattern is now ${JSON.stringify(b.pattern)}${typeof a.pattern === 'string' ? ` (was ${JSON.stringify(a.pattern)})` : ''}`);
  if (typeof b.format === 'string' && b.format !== a.format) push(ctx, typeof a.format === 'string' ? 'formatReplaced' : 'format', [...path, 'format'], `format is now ${JSON.stringify(b.format)}${typeof a.format === 'string' ? ` (was ${JSON.stringify(a.format)})` : ''}`);
}

function compareArrays(a: Obj, b: Obj, ctx: Ctx, path: Path): void {
  count(a, b, 'minItems', 'maxItems', ctx, path, ['minItems', 'maxItems']);
  if (b.uniqueItems === true && a.uniqueItems !== true) push(ctx, 'uniqueItems', [...path, 'uniqueItems'], 'items must now be unique');
  if (a.maxItems !== 0) subset((a.items ?? true) as Schema, (b.items ?? true) as Schema, ctx, [...path, 'items']);
}

function compareObjects(a: Obj, b: Obj, ctx: Ctx, path: Path): void {
  const aReq = (a.required ?? []) as string[];
  for (const r of (b.required ?? []) as string[]) if (!aReq.includes(r)) push(ctx, 'required', [...path, 'properties', r], `property ${JSON.stringify(r)} is now required`);
  const aProps = (a.properties ?? {}) as Obj;
  const bProps = (b.properties ?? {}) as Obj;
  const aAdd = openAsTrue(a.additionalProperties);
  const bAdd = openAsTrue(b.additionalProperties);
  for (const [k, ap] of Object.entries(aProps)) {
    const bp = (Object.hasOwn(bProps, k) ? bProps[k] : bAdd) as Schema;
    if (!Object.hasOwn(bProps, k) && bAdd === false) push(ctx, 'property', [...path, 'properties', k], `property ${JSON.stringify(k)} is no longer allowed`);
    else subset(ap as Schema, bp, ctx, [...path, 'properties', k]);
  }
  // A property `b` declares that `a` left to additionalProperties: open (true) is outside the contract.
  if (aAdd !== true && aAdd !== false) for (const [k, bp] of Object.entries(bProps)) if (!Object.hasOwn(aProps, k)) subset(aAdd, bp as Schema, ctx, [...path, 'properties', k]);
  if (bAdd === false && aAdd !== false) push(ctx, 'additionalProperties', [...path, 'additionalProperties'], 'undeclared properties are no longer allowed');
  else if (bAdd !== true && aAdd !== false) subset(aAdd, bAdd, ctx, [...path, 'additionalProperties']);
  count(a, b, 'minProperties', 'maxProperties', ctx, path, ['propertyCount', 'propertyCount']);
}

/** `additionalProperties` absent, `true` or `{}` (zod 4's passthrough writes `{}`) alike: open. */
function openAsTrue(x: unknown): Schema {
  if (x === undefined || (typeof x === 'object' && x !== null && Object.keys(x).length === 0)) return true;
  return x as Schema;
}
