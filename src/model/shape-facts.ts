// What a tool's model takes from its schemas and that depends on nothing but a schema's shape
// (validate/rules/schema-shape.ts: its JSON less the prose): the spec `$defs` it uses (for its bundle) and
// the headers it mirrors. Large specs repeat shapes across tools (the 1,000-tool benchmark has ~30).
import { bundleSchema, isObjectSchema, specDefsUsed, walkSchema } from '../common/json-schema.js';
import { schemaShape } from '../validate/rules/schema-shape.js';
import type { JsonObjectSchema, JsonSchema } from '../validate/spec-types.js';
import type { HeaderModel } from './ir.js';

export interface ShapeFacts {
  /** bundleSchema with the spec's `$defs`. */
  readonly bundle: (schema: JsonObjectSchema) => JsonObjectSchema;
  /** The headers an input schema mirrors (`headersOf` its bundle). */
  readonly headers: (schema: JsonObjectSchema) => HeaderModel[];
}

export function shapeFacts(defs: ReadonlyMap<string, JsonSchema>): ShapeFacts {
  const usedDefs = perShape((schema) => specDefsUsed(schema, defs));
  return {
    bundle: (schema) => bundleSchema(schema, defs, usedDefs),
    headers: perShape((schema) => headersOf(bundleSchema(schema, defs, usedDefs))),
  };
}

/** `make(schema)` once per schema shape. */
function perShape<T>(make: (schema: JsonObjectSchema) => T): (schema: JsonObjectSchema) => T {
  const made = new Map<string, T>();
  return (schema) => {
    const shape = schemaShape(schema);
    let value = made.get(shape);
    if (value === undefined) made.set(shape, (value = make(schema)));
    return value;
  };
}

/** The `x-mcp-header` properties reached from the root through `properties` only. */
function headersOf(input: JsonSchema): HeaderModel[] {
  const out: HeaderModel[] = [];
  walkSchema(input, ({ schema, path, propertiesOnly }) => {
    if (!propertiesOnly || !isObjectSchema(schema) || typeof schema['x-mcp-header'] !== 'string') return;
    out.push({
      header: schema['x-mcp-header'],
      path: path.filter((_, i) => i % 2 === 1).map(String),
      type: schema.type as HeaderModel['type'],
    });
  });
  return out;
}
