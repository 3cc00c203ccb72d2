// A small JSON Schema value check over the keywords the subset engine compares. Used to test the values of
// a finite schema (an enum, a short integer range) against the other schema, one by one.
import { canonical, lowerBound, typeAllows, typesOf, upperBound, type Schema, type SchemaRoot, type TypeName } from './schema-canonical.js';

type Obj = { readonly [key: string]: unknown };

export function jsonType(v: unknown): TypeName {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as TypeName;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Obj)[k], (b as Obj)[k]));
}

/** Is `value` valid under `schema`? */
export function accepts(schema: Schema, value: unknown, root: SchemaRoot): boolean {
  const s = canonical(schema, root);
  if (typeof s === 'boolean') return s;
  const t = jsonType(value);
  if (!typeAllows(typesOf(s), t)) return false;
  if ('const' in s && !deepEqual(s.const, value)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, value))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((b) => accepts(b as Schema, value, root))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((b) => accepts(b as Schema, value, root)).length !== 1) return false;
  if (s.not !== undefined && accepts(s.not as Schema, value, root)) return false;
  if (typeof value === 'number') return numberOk(s, value);
  if (typeof value === 'string') return stringOk(s, value);
  if (Array.isArray(value)) return arrayOk(s, value, root);
  if (t === 'object') return objectOk(s, value as Obj, root);
  return true;
}

function numberOk(s: Obj, v: number): boolean {
  const lo = lowerBound(s);
  const hi = upperBound(s);
  if (lo && (lo.exclusive ? v <= lo.value : v < lo.value)) return false;
  if (hi && (hi.exclusive ? v >= hi.value : v > hi.value)) return false;
  if (typeof s.multipleOf === 'number' && !Number.isInteger(v / s.multipleOf)) return false;
  return true;
}

function stringOk(s: Obj, v: string): boolean {
  const len = [...v].length;
  if (typeof s.minLength === 'number' && len < s.minLength) return false;
  if (typeof s.maxLength === 'number' && len > s.maxLength) return false;
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) return false;
  return true;
}

function arrayOk(s: Obj, v: readonly unknown[], root: SchemaRoot): boolean {
  if (typeof s.minItems === 'number' && v.length < s.minItems) return false;
  if (typeof s.maxItems === 'number' && v.length > s.maxItems) return false;
  if (s.uniqueItems === true && v.some((x, i) => v.findIndex((y) => deepEqual(x, y)) !== i)) return false;
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
  return v.every((x, i) => (i < prefix.length ? accepts(prefix[i]!, x, root) : s.items === undefined || accepts(s.items as Schema, x, root)));
}

function objectOk(s: Obj, v: Obj, root: SchemaRoot): boolean {
  const keys = Object.keys(v);
  if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false;
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false;
  if (Array.isArray(s.required) && !s.required.every((k) => Object.hasOwn(v, k as string))) return false;
  const props = (s.properties ?? {}) as Obj;
  return keys.every((k) => {
    const sub = Object.hasOwn(props, k) ? props[k] : s.additionalProperties;
    return sub === undefined || accepts(sub as Schema, v[k], root);
  });
}
