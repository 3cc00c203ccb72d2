// A schema for parts of values: an example's `result` is what structuredContent must contain, so what it
// gives must be valid where it stands, while anything may be left out. Only keywords that ask for
// presence (or whose verdict could turn on a left-out part) are dropped: every value the schema accepts,
// and every part of one, passes; types, enums, bounds, patterns and closed objects still apply.
import { isObjectSchema, SUBSCHEMA_PLACES } from '../../common/json-schema.js';
import type { JsonObjectSchema } from '../spec-types.js';

const DROPPED = new Set(['required', 'minProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'not', 'if', 'then', 'else']);

export function relaxedForSubset(schema: JsonObjectSchema): JsonObjectSchema {
  return relax(schema, 0) as JsonObjectSchema;
}

function relax(node: unknown, depth: number): unknown {
  if (!isObjectSchema(node) || depth > 64) return node;
  const sub = (s: unknown) => relax(s, depth + 1);
  const out: Record<string, unknown> = {};
  const allOf: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (SUBSCHEMA_PLACES.single.includes(key)) out[key] = sub(value);
    else if (SUBSCHEMA_PLACES.map.includes(key) && isObjectSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s)]));
    // A part may match several alternatives once `required` is gone: `oneOf` becomes `anyOf`.
    else if (key === 'oneOf' && Array.isArray(value)) allOf.push({ anyOf: value.map(sub) });
    else if (SUBSCHEMA_PLACES.list.includes(key) && Array.isArray(value)) {
      if (key === 'allOf') allOf.push(...value.map(sub));
      else out[key] = value.map(sub);
    } else out[key] = value;
  }
  if (allOf.length > 0) out.allOf = allOf;
  return out;
}
