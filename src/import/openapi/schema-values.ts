// `default` and `enum` values a description's schema refuses itself (exoapi.dev `{type: string, default: 0}`,
// gsmtasks.com, gerermesaffaires.com `enum: [null, …]` on a string, adyen.com and codat.io enum values
// longer than `maxLength`): the spec validator refuses those (MCPG022), so the import repairs them where the
// intent is clear and drops them where it is not, one MCPG191 warning each, at the value in the description.
import { isObjectSchema, walkSchema } from '../../common/json-schema.js';
import type { JsonObjectSchema } from '../../validate/spec-types.js';
import { valueProblem } from '../../validate/rules/json-schema.js';
import { note, type Pointer, type SchemaSink } from './schema-repair.js';

type Obj = Record<string, unknown>;

/** Every schema of the imported spec: its `$defs` and each tool's input and output. */
export function repairValues(schemas: Iterable<unknown>, defs: Readonly<Obj>, sink: SchemaSink): void {
  for (const root of schemas) {
    if (!isObjectSchema(root)) continue;
    walkSchema(root, ({ schema }) => {
      if (!isObjectSchema(schema) || !('default' in schema || Array.isArray(schema.enum))) return;
      const node = schema as Obj;
      const at = sink.origins.get(node);
      if (Array.isArray(node.enum)) repairEnum(node, at, sink);
      if ('default' in node) repairDefault(node, at, defs, sink);
    });
  }
}

type Judge = (value: unknown) => string | undefined;

/** The node without the value keywords, or undefined when it holds a `$ref` (judged by check, with the spec's `$defs`). */
function judge(node: Obj, strip: readonly string[]): Judge | undefined {
  const rest: Obj = { ...node };
  for (const k of strip) delete rest[k];
  if (JSON.stringify(rest).includes('"$ref"')) return undefined;
  return (value) => valueProblem(rest as JsonObjectSchema, value);
}

const ANNOTATIONS = new Set(['$ref', 'description', 'title', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * A `$ref` with annotations beside it (visma.com's `{$ref: KeywordCategory, default: "Case"}`) is judged
 * by the `$defs` entry it names, when that holds no `$ref` itself.
 */
function judgeRef(node: Obj, strip: readonly string[], defs: Readonly<Obj>): Judge | undefined {
  const name = typeof node.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(node.$ref)?.[1] : undefined;
  const target = name === undefined ? undefined : defs[name];
  if (!isObjectSchema(target) || !Object.keys(node).every((k) => ANNOTATIONS.has(k) || strip.includes(k))) return undefined;
  if (JSON.stringify(target).includes('"$ref"')) return undefined;
  return (value) => valueProblem(target, value);
}

const STRING_BOUNDS = ['maxLength', 'minLength', 'pattern', 'format'];

function repairEnum(node: Obj, at: Pointer | undefined, sink: SchemaSink): void {
  const check = judge(node, ['enum', 'const', 'default', 'examples']);
  if (check === undefined) return;
  const values = node.enum as unknown[];
  const bad = values.filter((v) => check(v) !== undefined);
  if (bad.length === 0) return;
  const where = at && [...at, 'enum'];
  // `enum: [null, "on", …]` on a string: the values say the schema is nullable.
  const typed = typeof node.type === 'string' || Array.isArray(node.type);
  if (bad.every((v) => v === null) && typed && !(node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null')))) {
    const type = node.type;
    node.type = [...(Array.isArray(type) ? type : [type]), 'null'];
    if (judge(node, ['enum', 'const', 'default', 'examples'])!(null) === undefined) {
      note(sink, where, '"enum" lists null, which the "type" does not allow: null added to the type');
      return;
    }
    node.type = type;
  }
  // An array's allowed item values written on the array (gerermesaffaires.com): they belong to `items`.
  if (node.type === 'array' && isObjectSchema(node.items) && !('enum' in node.items) && values.every((v) => !Array.isArray(v))) {
    (node.items as Obj).enum = values;
    delete node.enum;
    note(sink, where, '"enum" of item values on an array: moved to "items"');
    return;
  }
  // The listed values are what the API sends: a length or pattern bound they break is the mistake.
  const bounds = STRING_BOUNDS.filter((k) => k in node);
  if (bounds.length > 0) {
    const loose = judge(node, ['enum', 'const', 'default', 'examples', ...bounds])!;
    if (values.every((v) => loose(v) === undefined)) {
      for (const k of bounds) delete node[k];
      note(sink, where, `"enum" values ${preview(bad)} break the schema's own ${bounds.join(', ')}: ${bounds.length === 1 ? 'that bound was' : 'those bounds were'} dropped`);
      return;
    }
  }
  const kept = values.filter((v) => !bad.includes(v));
  if (kept.length > 0) node.enum = kept;
  else delete node.enum;
  note(sink, where, `"enum" values ${preview(bad)} are invalid against their own schema (${check(bad[0])}): dropped`);
}

function repairDefault(node: Obj, at: Pointer | undefined, defs: Readonly<Obj>, sink: SchemaSink): void {
  const check = judge(node, ['default', 'examples']) ?? judgeRef(node, ['default', 'examples'], defs);
  if (check === undefined) return;
  const value = node.default;
  const problem = check(value);
  if (problem === undefined) return;
  const where = at && [...at, 'default'];
  // `{type: integer, default: "1"}`, `{type: string, default: 0}`: the same value in the stated type.
  const converted = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  if (converted !== undefined && check(converted) === undefined) {
    node.default = converted;
    note(sink, where, `"default" ${preview(value)} is not of the schema's type: read as ${preview(converted)}`);
    return;
  }
  delete node.default;
  note(sink, where, `"default" ${preview(value)} is invalid against its own schema (${problem}): dropped`);
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
