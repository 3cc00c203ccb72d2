import { createAjv, type Ajv2020 } from '@mcpgen/runtime/shared';
import { bundleSchema, isObjectSchema, KNOWN_KEYWORDS, resolveRef, walkSchema } from '../../common/json-schema.js';
import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report, where } from '../report.js';
import type { JsonObjectSchema, JsonSchema } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';
import { lastSegment } from '../view.js';

let strictAjv: Ajv2020 | undefined;
let valueAjv: Ajv2020 | undefined;

/** ajv in strict mode: unknown formats, keywords and type mix-ups fail, as they would at the SDK's runtime. */
function strict(): Ajv2020 {
  // optimize:false halves compile time; this ajv only answers "does it compile", never validates data.
  strictAjv ??= createAjv({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: false, code: { optimize: false } });
  return strictAjv;
}

function lenient(): Ajv2020 {
  valueAjv ??= createAjv({ strict: false, allErrors: false });
  return valueAjv;
}

export function specDefsMap(view: SpecView): Map<string, JsonSchema> {
  const map = new Map<string, JsonSchema>();
  for (const d of view.defs) if (!map.has(lastSegment(d))) map.set(lastSegment(d), d.value);
  return map;
}

export function checkJsonSchemas(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const defs = specDefsMap(view);
  const firstDef = new Map<string, Located<JsonSchema>>();
  for (const d of view.defs) {
    const name = lastSegment(d);
    const prior = firstDef.get(name);
    if (prior !== undefined) out.push(report(d, 'MCPG031', `$defs "${name}" is already defined at ${where(prior)}`, [], 'key'));
    else firstDef.set(name, d);
    if (isObjectSchema(d.value)) out.push(...checkSchema({ ...d, value: d.value }, d.value, {}, defs, `$defs "${name}"`));
  }
  for (const tool of view.tools) {
    const name = JSON.stringify(tool.value.name);
    const input = tool.value.input;
    if (input !== undefined) {
      const at = { ...tool, value: input, path: [...tool.path, 'input'] };
      if (input.type !== 'object') {
        out.push(report(at, 'MCPG018', `input schema of tool ${name} must have "type: object" at its root (tool arguments are always a JSON object), got ${input.type === undefined ? 'no type' : JSON.stringify(input.type)}`, 'type' in input ? ['type'] : []));
      }
      out.push(...checkSchema(at, input, input, defs, `input schema of tool ${name}`));
    }
    const output = tool.value.output;
    if (output !== undefined) {
      out.push(...checkSchema({ ...tool, value: output, path: [...tool.path, 'output'] }, output, output, defs, `output schema of tool ${name}`));
    }
  }
  return out;
}

/**
 * Keyword, `$ref`, `required` and value checks with positions, then a strict ajv compile of the bundled
 * schema as the final word. `refRoot` is what `#` means for this schema (`{}` inside spec `$defs`).
 */
export function checkSchema(
  item: Located<JsonObjectSchema>,
  schema: JsonObjectSchema,
  refRoot: JsonSchema,
  defs: ReadonlyMap<string, JsonSchema>,
  label: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  walkSchema(schema, ({ schema: node, path }) => {
    if (!isObjectSchema(node)) return;
    for (const key of Object.keys(node)) {
      if (KNOWN_KEYWORDS.includes(key) || key.startsWith('x-')) continue;
      const hint = didYouMean(key, KNOWN_KEYWORDS);
      out.push(report(item, 'MCPG020', `unknown JSON Schema keyword "${key}" in ${label}${hint ? `; did you mean "${hint}"?` : ''}`, [...path, key], 'key'));
    }
    // A `pattern` is a value; a `patternProperties` pattern is a key.
    const patterns: [string, (string | number)[], 'value' | 'key'][] = typeof node.pattern === 'string' ? [[node.pattern, [...path, 'pattern'], 'value']] : [];
    if (isObjectSchema(node.patternProperties)) for (const p of Object.keys(node.patternProperties)) patterns.push([p, [...path, 'patternProperties', p], 'key']);
    for (const [pattern, at, target] of patterns) {
      const problem = regExpProblem(pattern);
      if (problem !== undefined) out.push(report(item, 'MCPG019', `pattern ${preview(pattern)} cannot be used in ${label}: ${problem}`, at, target));
    }
    if (typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, refRoot, defs);
      if (target.kind === 'unresolved') out.push(report(item, 'MCPG023', `$ref ${JSON.stringify(node.$ref)} does not resolve in ${label}: ${target.reason}`, [...path, '$ref']));
    }
    if (Array.isArray(node.required) && isObjectSchema(node.properties)) {
      const props = node.properties;
      node.required.forEach((name, i) => {
        if (typeof name === 'string' && !Object.hasOwn(props, name)) {
          out.push(report(item, 'MCPG021', `"required" names "${name}", which is not among the properties (${Object.keys(props).join(', ') || 'none'}) in ${label}`, [...path, 'required', i]));
        }
      });
    }
  });
  if (out.length > 0) return out;
  const bundled = bundleSchema(schema, defs);
  const compileError = compile(strict(), bundled);
  if (compileError !== undefined) return [report(item, 'MCPG019', `${label} does not compile: ${compileError}`)];
  return checkValues(item, schema, bundled, label);
}

/** `default`, `const`, `enum` and `examples` must themselves satisfy the schema they sit in. */
function checkValues(item: Located<JsonObjectSchema>, schema: JsonObjectSchema, bundled: JsonObjectSchema, label: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  walkSchema(schema, ({ schema: node, path }) => {
    if (!isObjectSchema(node)) return;
    const check = (keyword: string, value: unknown, at: (string | number)[], strip: readonly string[]) => {
      const rest: Record<string, unknown> = { ...node };
      for (const k of strip) delete rest[k];
      if (typeof rest.$ref === 'string' && bundled.$defs !== undefined) rest.$defs = { ...(isObjectSchema(rest.$defs) ? rest.$defs : {}), ...(bundled.$defs as object) };
      const error = validateValue(rest, value);
      if (error !== undefined) out.push(report(item, 'MCPG022', `${keyword} value ${preview(value)} is invalid against its schema in ${label}: ${error}`, [...path, ...at]));
    };
    if ('default' in node) check('default', node.default, ['default'], ['default', 'examples']);
    if ('const' in node) check('const', node.const, ['const'], ['const', 'default', 'examples', 'enum']);
    if (Array.isArray(node.enum)) node.enum.forEach((v, i) => check('enum', v, ['enum', i], ['enum', 'const', 'default', 'examples']));
    if (Array.isArray(node.examples)) node.examples.forEach((v, i) => check('examples', v, ['examples', i], ['examples', 'default']));
  });
  return out;
}

/** Compile outcomes by schema text less annotations: large specs repeat shapes (pagination, ids, windows). */
const compileOutcomes = new Map<string, string | undefined>();

/** Keywords that never change what a schema compiles to. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

function compile(ajv: Ajv2020, schema: JsonObjectSchema): string | undefined {
  const key = JSON.stringify(schema, (k, v: unknown) => (ANNOTATIONS.has(k) && typeof v !== 'object' ? undefined : v));
  if (compileOutcomes.has(key)) return compileOutcomes.get(key);
  registerExtensionKeywords(ajv, schema);
  let outcome: string | undefined;
  try {
    ajv.compile(schema);
  } catch (e) {
    outcome = e instanceof Error ? e.message : String(e);
  } finally {
    ajv.removeSchema(schema);
  }
  compileOutcomes.set(key, outcome);
  return outcome;
}

/** Compiled value validators by schema text: the same small schemas recur across tools. */
const valueValidators = new Map<string, ((v: unknown) => string | undefined) | null>();

function validateValue(schema: JsonObjectSchema, value: unknown): string | undefined {
  // Fast path for the common leaf shapes: a plain `type` with no other constraint.
  const key = JSON.stringify(schema);
  let validate = valueValidators.get(key);
  if (validate === undefined) {
    const ajv = lenient();
    registerExtensionKeywords(ajv, schema);
    try {
      const fn = ajv.compile(schema);
      validate = (v) => {
        try {
          if (fn(v)) return undefined;
        } catch (e) {
          return `the schema cannot be evaluated (${preview(e instanceof Error ? e.message : String(e))})`;
        }
        const e = fn.errors?.[0];
        return e === undefined ? 'invalid' : `${e.instancePath || 'value'} ${e.message ?? 'is invalid'}`;
      };
    } catch {
      validate = null; // the schema itself is reported by the compile check
    } finally {
      ajv.removeSchema(schema);
    }
    valueValidators.set(key, validate);
  }
  return validate === null ? undefined : validate(value);
}

/** `x-*` keywords are annotations; strict ajv must be told about each before it compiles a schema. */
function registerExtensionKeywords(ajv: Ajv2020, schema: JsonSchema): void {
  for (const k of collectExtensionKeywords(schema)) if (!ajv.getKeyword(k)) ajv.addKeyword({ keyword: k });
}

function collectExtensionKeywords(schema: JsonSchema): string[] {
  const keys = new Set<string>();
  walkSchema(schema, ({ schema: node }) => {
    if (isObjectSchema(node)) for (const k of Object.keys(node)) if (k.startsWith('x-')) keys.add(k);
  });
  return [...keys];
}

/**
 * Why a pattern cannot run, as ajv will run it (`u` flag). V8 parses a pattern when the RegExp is made
 * but compiles it on first use, where "Regular expression too large" surfaces: so run it once.
 */
function regExpProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u').test('');
    return undefined;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // V8 says "Invalid regular expression: /<the pattern>/u: <reason>": the pattern is already quoted.
    return message.slice(message.lastIndexOf(': ') + 2) || message;
  }
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
