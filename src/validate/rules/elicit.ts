import { isObjectSchema } from '../../common/json-schema.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import type { SpecView } from '../view.js';

const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'];
const ALLOWED: Record<string, readonly string[]> = {
  string: ['type', 'title', 'description', 'minLength', 'maxLength', 'format', 'default', 'enum', 'oneOf', 'enumNames'],
  number: ['type', 'title', 'description', 'minimum', 'maximum', 'default'],
  integer: ['type', 'title', 'description', 'minimum', 'maximum', 'default'],
  boolean: ['type', 'title', 'description', 'default'],
  array: ['type', 'title', 'description', 'items', 'minItems', 'maxItems', 'default'],
};

/** Form elicitation schemas are flat objects of primitives (2026-07-28 client/elicitation). */
export function checkElicit(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of view.tools) {
    for (const [key, e] of Object.entries(tool.value.elicit ?? {})) {
      const at = ['elicit', key];
      const label = `elicitation "${key}" of tool ${JSON.stringify(tool.value.name)}`;
      if (key === '__proto__') {
        // @modelcontextprotocol/server 2.4 copies inputResponses by assignment: that entry becomes a prototype and the answer is lost.
        out.push(report(tool, 'MCPG041', `${label}: the key "__proto__" cannot carry an answer (the MCP SDK drops an inputResponses entry of that name, so the tool would ask forever); rename it`, at, 'key'));
        continue;
      }
      if ((e.mode ?? 'form') === 'url') {
        if (e.schema !== undefined) out.push(report(tool, 'MCPG029', `${label} is URL mode and cannot have a schema`, [...at, 'schema'], 'key'));
        continue;
      }
      if (e.url !== undefined) out.push(report(tool, 'MCPG029', `${label} is form mode; "url" needs "mode: url"`, [...at, 'url'], 'key'));
      const schema = e.schema;
      if (schema === undefined) {
        out.push(report(tool, 'MCPG005', `${label} needs a "schema" (form mode) or "mode: url"`, at));
        continue;
      }
      if (schema.type !== 'object' || !isObjectSchema(schema.properties)) {
        out.push(report(tool, 'MCPG029', `${label}: schema must be "type: object" with "properties"`, [...at, 'schema']));
        continue;
      }
      for (const k of Object.keys(schema)) {
        if (!['$schema', 'type', 'properties', 'required', 'title', 'description'].includes(k)) {
          out.push(report(tool, 'MCPG029', `${label}: "${k}" is not allowed at the root of a form schema`, [...at, 'schema', k], 'key'));
        }
      }
      for (const [name, prop] of Object.entries(schema.properties)) {
        const where = [...at, 'schema', 'properties', name];
        const problem = primitiveProblem(prop);
        if (problem !== undefined) out.push(report(tool, 'MCPG029', `${label}: property "${name}" ${problem}`, where));
      }
      if (Array.isArray(schema.required)) {
        schema.required.forEach((r, i) => {
          if (typeof r !== 'string' || !Object.hasOwn(schema.properties as object, r)) {
            out.push(report(tool, 'MCPG021', `${label}: "required" names "${String(r)}", which is not a property`, [...at, 'schema', 'required', i]));
          }
        });
      }
    }
  }
  return out;
}

function primitiveProblem(prop: unknown): string | undefined {
  if (!isObjectSchema(prop)) return 'must be a schema object';
  const type = prop.type;
  if (typeof type !== 'string' || !Object.hasOwn(ALLOWED, type)) return 'must have type string, number, integer, boolean, or array (multi-select enum)';
  const extra = Object.keys(prop).find((k) => !ALLOWED[type]!.includes(k));
  if (extra !== undefined) return `uses "${extra}", which form fields of type ${type} do not allow`;
  if (type === 'string' && prop.format !== undefined && !STRING_FORMATS.includes(String(prop.format))) {
    return `has format ${JSON.stringify(prop.format)}; allowed: ${STRING_FORMATS.join(', ')}`;
  }
  if (type === 'array') {
    const items = prop.items;
    const enumOk = isObjectSchema(items) && ((items.type === 'string' && Array.isArray(items.enum)) || Array.isArray(items.anyOf));
    if (!enumOk) return 'is an array, which forms allow only as a multi-select enum (items: {type: string, enum: [...]} or items: {anyOf: [...]})';
  }
  return undefined;
}
