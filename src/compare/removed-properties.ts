// Properties one schema declares and the other no longer does, wherever they sit: under properties, array
// `items`, through `$ref`s and `allOf`. The subset engine does not see these where the object is open (an
// undeclared property is allowed), yet callers and typed clients do: an argument a caller still sends is
// ignored, a result property client code reads is gone from its type.
import { canonical, type Schema } from './schema-canonical.js';

type Obj = { readonly [key: string]: unknown };
type Path = readonly (string | number)[];

const MAX_DEPTH = 16; // recursive $refs: what was walked so far stands

export interface RemovedProperty {
  /** Schema path of the object that lost the property (spec spelling: properties/items). */
  readonly path: Path;
  readonly name: string;
  /** The new object refuses undeclared properties (then the subset engine reports it too). */
  readonly closed: boolean;
}

/** Every property declared by `a` and not by `b`, at the same place in both. */
export function removedProperties(a: Schema, b: Schema): RemovedProperty[] {
  const out: RemovedProperty[] = [];
  walk(a, b, { root: a }, { root: b }, [], 0, out);
  return out;
}

function walk(rawA: Schema, rawB: Schema, rootA: { root: Schema }, rootB: { root: Schema }, path: Path, depth: number, out: RemovedProperty[]): void {
  if (depth > MAX_DEPTH) return;
  const a = canonical(rawA, rootA);
  const b = canonical(rawB, rootB);
  if (typeof a !== 'object' || typeof b !== 'object') return;
  const ap = (a.properties ?? {}) as Obj;
  const bp = (b.properties ?? {}) as Obj;
  for (const k of Object.keys(ap)) {
    if (!Object.hasOwn(bp, k)) out.push({ path, name: k, closed: b.additionalProperties === false });
    else walk(ap[k] as Schema, bp[k] as Schema, rootA, rootB, [...path, 'properties', k], depth + 1, out);
  }
  if (isSchema(a.items) && isSchema(b.items)) walk(a.items, b.items, rootA, rootB, [...path, 'items'], depth + 1, out);
}

function isSchema(x: unknown): x is Schema {
  return typeof x === 'boolean' || (typeof x === 'object' && x !== null && !Array.isArray(x));
}
