// Large specs repeat a schema's shape across tools and differ in its prose: the 1,000 tools of the
// benchmark spec have some 30 input shapes, GitHub's share pagination and id parameters. What the
// schema rules decide (keywords, `$ref`s, a compile, values against their schemas, `$ref` cycles) never
// depends on what a `title`, `description` or `$comment` string says, only on its being a string: a
// schema's shape is its JSON text with those strings emptied where walkSchema finds a subschema (a
// `description` inside a `default` value or an extension keyword stays as written), so a clean outcome
// found once holds for every schema of the same shape, wherever it is written.
import { isObjectSchema, SUBSCHEMA_PLACES } from '../../common/json-schema.js';
import type { JsonSchema } from '../spec-types.js';

const PROSE = new Set(['title', 'description', '$comment']);
const SINGLE: ReadonlySet<string> = new Set(SUBSCHEMA_PLACES.single);
const MAP: ReadonlySet<string> = new Set(SUBSCHEMA_PLACES.map);
const LIST: ReadonlySet<string> = new Set(SUBSCHEMA_PLACES.list);
/** walkSchema's depth: a subschema below it is written out as it is. */
const MAX_DEPTH = 64;

/** By schema object: spec values are never changed once loaded (bundleSchema relies on it too). */
const shapes = new WeakMap<object, string>();

/** The schema's text with its prose strings emptied; equal shapes get equal outcomes from the schema rules. */
export function schemaShape(schema: JsonSchema | undefined): string {
  if (!isObjectSchema(schema)) return valueText(schema);
  let shape = shapes.get(schema);
  if (shape === undefined) shapes.set(schema, (shape = shapeText(schema, 0)));
  return shape;
}

function shapeText(schema: unknown, depth: number): string {
  if (!isObjectSchema(schema) || depth >= MAX_DEPTH) return valueText(schema);
  // Concatenation, not arrays joined: this runs over every schema of a large spec, mostly cold.
  let text = '{';
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    const value = schema[key];
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:`;
    if (PROSE.has(key) && typeof value === 'string') text += '""';
    else if (SINGLE.has(key)) text += shapeText(value, depth + 1);
    else if (MAP.has(key) && isObjectSchema(value)) {
      text += '{';
      let first = true;
      for (const name in value) {
        if (!Object.hasOwn(value, name)) continue;
        text += `${first ? '' : ','}${JSON.stringify(name)}:${shapeText(value[name], depth + 1)}`;
        first = false;
      }
      text += '}';
    } else if (LIST.has(key) && Array.isArray(value)) {
      text += '[';
      for (let i = 0; i < value.length; i++) text += `${i > 0 ? ',' : ''}${shapeText(value[i], depth + 1)}`;
      text += ']';
    } else text += valueText(value);
  }
  return `${text}}`;
}

/** JSON text, and a word for what JSON has none for (an absent value is not `{}`'s missing key). */
function valueText(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}
