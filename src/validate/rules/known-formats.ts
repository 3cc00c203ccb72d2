// The `format`s the strict ajv knows, and a schema without the others: JSON Schema 2020-12 §7.2.3 makes an
// unknown format an annotation (never failing validation), but strict ajv refuses to compile it.
import { isObjectSchema, SUBSCHEMA_PLACES, walkSchema } from '../../common/json-schema.js';
import { knownFormats } from '../precompiled-validators.js';
import type { JsonObjectSchema } from '../spec-types.js';

/** The formats the strict ajv knows (precompiled-validators.ts lists them, so no ajv is needed to ask). */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(knownFormats as string[]);

/** A copy without the `format`s ajv does not know: strict ajv refuses them, and they are never checked. */
export function withoutUnknownFormats(schema: JsonObjectSchema): JsonObjectSchema {
  if (allFormatsKnown(schema, 0)) return schema;
  let unknown = false;
  walkSchema(schema, ({ schema: node }) => {
    unknown ||= isObjectSchema(node) && typeof node.format === 'string' && !KNOWN_FORMATS.has(node.format);
  });
  if (!unknown) return schema;
  const copy = structuredClone(schema);
  walkSchema(copy, ({ schema: node }) => {
    if (isObjectSchema(node) && typeof node.format === 'string' && !KNOWN_FORMATS.has(node.format)) delete (node as Record<string, unknown>).format;
  });
  return copy;
}

/** By schema object (spec values never change once loaded): no unknown `format` anywhere below it. */
const formatsKnown = new WeakMap<object, boolean>();
const SUBSCHEMA_KEYS: ReadonlySet<string> = new Set([...SUBSCHEMA_PLACES.single, ...SUBSCHEMA_PLACES.map, ...SUBSCHEMA_PLACES.list]);

/**
 * True when no subschema, however deep, has a `format` ajv does not know: what withoutUnknownFormats' walk
 * would find, answered once per object. A bundled schema is a new object, but the spec defs copied into it
 * are not: each is looked at once, not again inside every schema that uses it (GitHub's share hundreds).
 * False means "maybe" (the walk decides), as does a nesting too deep to follow here.
 */
function allFormatsKnown(node: unknown, depth: number): boolean {
  if (typeof node !== 'object' || node === null) return true;
  if (depth > 256) return false;
  const known = formatsKnown.get(node);
  if (known !== undefined) return known;
  let ok = true;
  if (Array.isArray(node)) {
    for (const item of node) if (!(ok = allFormatsKnown(item, depth + 1))) break;
  } else {
    const schema = node as Record<string, unknown>;
    if (typeof schema.format === 'string' && !KNOWN_FORMATS.has(schema.format)) ok = false;
    for (const key in schema) {
      if (!ok) break;
      if (!SUBSCHEMA_KEYS.has(key) || !Object.hasOwn(schema, key)) continue;
      const value = schema[key];
      // A map keyword (properties, $defs…) holds subschemas by name; the others are a subschema or a list.
      if (SUBSCHEMA_PLACES.map.includes(key) && isObjectSchema(value)) {
        for (const name in value) if (Object.hasOwn(value, name) && !(ok = allFormatsKnown(value[name], depth + 1))) break;
      } else ok = allFormatsKnown(value, depth + 1);
    }
  }
  formatsKnown.set(node, ok);
  return ok;
}
