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
  // A schema's object forms: itself and its `anyOf`/`oneOf` branches (notion-mcp-server 2.4.0 wrapped object
  // arguments in `anyOf: [object, string]`): a property is removed when no form of the new schema declares it.
  const as = forms(rawA, rootA, 0);
  const bs = forms(rawB, rootB, 0);
  if (as.length === 0 || bs.length === 0) return;
  const closed = bs.every((b) => b.additionalProperties === false);
  const seen = new Set<string>();
  for (const a of as) {
    for (const [k, schema] of Object.entries((a.properties ?? {}) as Obj)) {
      if (seen.has(k)) continue;
      seen.add(k);
      const b = bs.find((x) => Object.hasOwn((x.properties ?? {}) as Obj, k));
      if (b === undefined) out.push({ path, name: k, closed });
      else walk(schema as Schema, (b.properties as Obj)[k] as Schema, rootA, rootB, [...path, 'properties', k], depth + 1, out);
    }
  }
  const ai = as.find((x) => isSchema(x.items));
  const bi = bs.find((x) => isSchema(x.items));
  if (ai !== undefined && bi !== undefined) walk(ai.items as Schema, bi.items as Schema, rootA, rootB, [...path, 'items'], depth + 1, out);
}

function forms(raw: Schema, root: { root: Schema }, depth: number): Obj[] {
  const s = canonical(raw, root);
  if (typeof s !== 'object' || depth > MAX_DEPTH) return [];
  const branches = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])].filter(isSchema);
  return [s, ...branches.flatMap((b) => forms(b, root, depth + 1))];
}

function isSchema(x: unknown): x is Schema {
  return typeof x === 'boolean' || (typeof x === 'object' && x !== null && !Array.isArray(x));
}
