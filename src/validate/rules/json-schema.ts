import { createRequire } from 'node:module';
import type { Ajv2020, Dialect } from '@mcpgen/runtime/shared';
import { DIALECTS, DIALECT_URIS, dialectOf } from '@mcpgen/runtime/shared/dialects';
import { bundleSchema, isObjectSchema, KNOWN_KEYWORDS, objectRoot, resolveRef, walkSchema } from '../../common/json-schema.js';
import { didYouMean, editDistance } from '../../common/suggest.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { metaSchema2020 } from '../precompiled-meta-schema.js';
import { KNOWN_FORMATS, withoutUnknownFormats } from './known-formats.js';
import { isPlainSchema, plainlyValid } from './plain-schema.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { describe, pointerToPath } from '../spec-format.js';
import { fixOf, misplacedRequired, refHint, renameFix, withFix } from '../teach.js';
import { replaceScalarEdit } from '../../parse/edits.js';
import { report, where } from '../report.js';
import { findRefCycles } from './ref-cycles.js';
import { withCopiedDefsStubbed } from './compile-stubs.js';
import type { JsonObjectSchema, JsonSchema, RawTool } from '../spec-types.js';
import { cleanUnderDefs } from './schema-check-cache.js';
import { schemaCheckRecord } from './schema-check-record.js';
import { objectCachesEnabled } from '../../common/context-stores.js';
import { schemaShape } from './schema-shape.js';
import { boundedMap } from '../../common/bounded-map.js';
import type { Located, SpecView } from '../view.js';
import { lastSegment } from '../view.js';

const MCP_HEADER = 'x-mcp-header';

/** Keywords of draft-07 and 2019-09 that 2020-12 renamed or dropped: known in schemas naming those dialects. */
const OLDER_KEYWORDS: readonly string[] = ['definitions', 'dependencies', 'additionalItems', '$recursiveRef', '$recursiveAnchor'];

/** `x-mcp-headers`, `X-MCP-Header`, `x_mcp_header`, `mcp-header`: a typo that would silently mirror nothing. */
function nearMcpHeader(key: string): boolean {
  return key !== MCP_HEADER && editDistance(key.toLowerCase().replace(/_/g, '-'), MCP_HEADER) <= 2;
}

const strictAjvs = new Map<Dialect, Ajv2020>();
const valueAjvs = new Map<Dialect, Ajv2020>();

/**
 * The strict ajv's options that decide validation. scripts/precompile-validators.mjs compiles the 2020-12
 * meta-schema with the same ones (a test keeps the two equal).
 */
export const STRICT_AJV_OPTIONS = {
  // strict:'log' turns every strict-mode finding into a logged line instead of stopping at the first:
  // compile() collects them, so a schema's problems are all reported at once.
  strict: 'log',
  strictRequired: false,
  allowUnionTypes: true,
  // Every meta-schema error of a schema (validateSchema), not only the first.
  allErrors: true,
  // optimize:false halves compile time; this ajv only answers "does it compile", never validates data.
  code: { optimize: false },
} as const;

/** The default meta-schema, checked by build-time code (precompiled-meta-schema.ts) instead of compiling it each run. */
const META_2020 = 'https://json-schema.org/draft/2020-12/schema';
const precompiledMeta = metaSchema2020 as unknown as ValidateFunction;

/**
 * ajv (with its compiler) is loaded on first use: schemas in the plain subset (plain-schema.ts) never need
 * it. Node that cannot require() an ES module (before 20.19 / 22.12) must load it ahead: loadAjvAhead.
 */
// A name, not a literal: the CLI bundles (scripts/bundle-cli.mjs) leave this module to run time.
const SHARED = '@mcpgen/runtime/shared';
type Shared = typeof import('@mcpgen/runtime/shared');
let shared: Shared | undefined;
export function createAjv(dialect: Dialect, options: Parameters<Shared['createAjv']>[0]): Ajv2020 {
  shared ??= createRequire(import.meta.url)(SHARED) as Shared;
  return shared.createAjvFor(dialect, options);
}

/** Loads ajv now where Node cannot require() it later (the CLI calls this before checking). */
export async function loadAjvAhead(): Promise<void> {
  if ((process.features as { require_module?: boolean }).require_module !== true) shared ??= (await import(SHARED)) as Shared;
}

/** ajv in strict mode: unknown formats, keywords and type mix-ups fail, as they would at the SDK's runtime. */
function strict(dialect: Dialect): Ajv2020 {
  let strictAjv = strictAjvs.get(dialect);
  if (strictAjv !== undefined) return strictAjv;
  strictAjv = createAjv(dialect, {
    ...STRICT_AJV_OPTIONS,
    // Checked before each compile by assertValidSchema, against the precompiled meta-schema.
    validateSchema: false,
    logger: { log: () => undefined, warn: (...m: unknown[]) => strictFindings?.push(m.map(String).join(' ')), error: (...m: unknown[]) => strictFindings?.push(m.map(String).join(' ')) },
  });
  strictAjvs.set(dialect, strictAjv);
  return strictAjv;
}

/** Where the strict ajv logs findings while compile() runs. */
let strictFindings: string[] | undefined;


const SIMPLE_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
/** Type names from programming languages that people write in schemas. */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  int: 'integer', long: 'integer', bool: 'boolean', str: 'string', float: 'number', double: 'number', decimal: 'number',
  dict: 'object', map: 'object', list: 'array', none: 'null', nil: 'null',
};

function lenient(dialect: Dialect): Ajv2020 {
  let valueAjv = valueAjvs.get(dialect);
  if (valueAjv === undefined) valueAjvs.set(dialect, (valueAjv = createAjv(dialect, { strict: false, allErrors: false, validateSchema: false })));
  return valueAjv;
}

/**
 * What ajv's compile does first when `validateSchema` is on, with the same message ("schema is invalid:
 * data/… must …"), but the default meta-schema's check is precompiled: compiling the meta-schema was a
 * third of a `mcpgen check`. A schema naming another `$schema` is checked by ajv itself, as before.
 */
function assertValidSchema(ajv: Ajv2020, schema: JsonObjectSchema, dialect: Dialect): void {
  // A part of a draft-07 schema (a property checked for its default) has no `$schema` of its own.
  if (dialect !== '2020-12' || (schema.$schema !== undefined && schema.$schema !== META_2020)) {
    ajv.validateSchema(schema, true);
    return;
  }
  const errors = metaErrors(schema, '2020-12');
  if (errors.length > 0) throw new Error(`schema is invalid: ${ajv.errorsText([...errors])}`);
}

export function specDefsMap(view: SpecView): Map<string, JsonSchema> {
  const map = new Map<string, JsonSchema>();
  for (const d of view.defs) if (!map.has(lastSegment(d))) map.set(lastSegment(d), d.value);
  return map;
}

export function checkJsonSchemas(view: SpecView): Diagnostic[] {
  // Files this mcpgen found clean before (the import's check, then `generate`): schema-check-record.ts.
  // Not under --watch, whose per-entry caches (schema-check-cache.ts) must be filled by a full first check.
  const record = objectCachesEnabled() ? undefined : schemaCheckRecord(view.files);
  if (record?.clean === true) return [];
  const out = checkAllSchemas(view);
  if (out.length === 0) record?.save();
  return out;
}

function checkAllSchemas(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const defs = specDefsMap(view);
  const firstDef = new Map<string, Located<JsonSchema>>();
  // Schemas that reach a $ref cycle are reported once (MCPG040) and not compiled: ajv would overflow.
  const cycles = findRefCycles(view, defs);
  out.push(...cycles.diagnostics);
  const ok = (schema: unknown) => !cycles.tainted.has(schema);
  for (const d of view.defs) {
    const name = lastSegment(d);
    const prior = firstDef.get(name);
    if (prior !== undefined) out.push(report(d, 'MCPG031', `$defs "${name}" is already defined at ${where(prior)}`, [], 'key'));
    else firstDef.set(name, d);
    if (isObjectSchema(d.value) && ok(d.value)) out.push(...checkSchema({ ...d, value: d.value }, d.value, {}, defs, `$defs "${name}"`));
  }
  const clean = cleanUnderDefs('tool schemas', defs);
  // Tools whose input and output shapes (schema-shape.ts) an earlier tool of this run checked clean.
  const cleanShapes = new Set<string>();
  for (const tool of view.tools) {
    if (clean.has(tool.value)) continue;
    const { input, output } = tool.value;
    const shape = `${schemaShape(input)}\u0000${schemaShape(output)}`;
    if (cleanShapes.has(shape)) {
      clean.add(tool.value);
      continue;
    }
    const before = out.length;
    checkToolSchemas(tool, defs, ok, out);
    if (out.length !== before) continue;
    clean.add(tool.value);
    // A schema with a cycle is not checked here (MCPG040 is its diagnostic): its silence proves nothing.
    if ((input === undefined || ok(input)) && (output === undefined || ok(output))) cleanShapes.add(shape);
  }
  return out;
}

/** A tool's input and output schemas: keywords, $refs, a strict compile, values, and an object root. */
function checkToolSchemas(tool: Located<RawTool>, defs: ReadonlyMap<string, JsonSchema>, ok: (schema: unknown) => boolean, out: Diagnostic[]): void {
  const name = JSON.stringify(tool.value.name);
  const input = tool.value.input;
  if (input !== undefined) {
    const at = { ...tool, value: input, path: [...tool.path, 'input'] };
    if (input.type !== 'object') {
      out.push(report(at, 'MCPG018', `input schema of tool ${name} must have "type: object" at its root (tool arguments are always a JSON object), got ${input.type === undefined ? 'no type' : JSON.stringify(input.type)}`, 'type' in input ? ['type'] : []));
    }
    if (ok(input)) out.push(...checkSchema(at, input, input, defs, `input schema of tool ${name}`));
  }
  const output = tool.value.output;
  if (output !== undefined && ok(output)) {
    const at = { ...tool, value: output, path: [...tool.path, 'output'] };
    const problems = checkSchema(at, output, output, defs, `output schema of tool ${name}`);
    out.push(...problems);
    const root = problems.length === 0 ? objectRoot(output, output, defs) : undefined;
    if (root !== undefined && !root.object) {
      // The SDK sends a root that is not plainly an object wrapped ({"result": …}) to 2025-era clients only.
      out.push(report(at, 'MCPG042', `output schema of tool ${name} must describe a JSON object at its root (structuredContent is one, for every client), but it allows ${root.why}; put the value under a property of an object`, 'type' in output ? ['type'] : []));
    }
  }
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
  const dialect = dialectOf(schema);
  if (dialect === undefined) {
    // Not ajv's "no schema with key or ref": which dialects there are, and the one way out.
    const supported = DIALECTS.map((d) => DIALECT_URIS[d]).join(', ');
    return [report(item, 'MCPG110', `${label} names the JSON Schema dialect ${preview(schema.$schema)}, which mcpgen does not support; use one of ${supported}, or leave "$schema" out for 2020-12`, ['$schema'])];
  }
  const out: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  // What withoutUnknownFormats would look for: this walk sees every node it would.
  let unknownFormat = false;
  // ajv throws on `enum: []` and stops: it is compiled as `not: {}`, which means the same (MCPG190 above).
  let emptyEnum = false;
  walkSchema(schema, ({ schema: node, path }) => {
    if (!isObjectSchema(node)) return;
    for (const key of Object.keys(node)) {
      if (key === MCP_HEADER || KNOWN_KEYWORDS.includes(key) || (dialect !== '2020-12' && OLDER_KEYWORDS.includes(key))) continue;
      if (nearMcpHeader(key)) {
        out.push(withFix(report(item, 'MCPG020', `unknown keyword "${key}" in ${label}: no header is mirrored; did you mean "${MCP_HEADER}"?`, [...path, key], 'key'), renameFix(item.source, [...item.path, ...path, key], MCP_HEADER)));
        continue;
      }
      if (key.startsWith('x-')) {
        // Extension keywords are annotations, registered with ajv by name before it compiles: ajv refuses some names.
        if (!AJV_KEYWORD_NAME.test(key)) out.push(report(item, 'MCPG019', `extension keyword "${key}" in ${label} cannot be compiled: ajv takes keyword names of letters, digits and _ $ : - only`, [...path, key], 'key'));
        continue;
      }
      const hint = didYouMean(key, KNOWN_KEYWORDS);
      const d = report(item, 'MCPG020', `unknown JSON Schema keyword "${key}" in ${label}${hint ? `; did you mean "${hint}"?` : ''}`, [...path, key], 'key');
      out.push(hint === undefined ? d : withFix(d, renameFix(item.source, [...item.path, ...path, key], hint)));
    }
    // A `pattern` is a value; a `patternProperties` pattern is a key.
    const patterns: [string, (string | number)[], 'value' | 'key'][] = typeof node.pattern === 'string' ? [[node.pattern, [...path, 'pattern'], 'value']] : [];
    if (isObjectSchema(node.patternProperties)) for (const p of Object.keys(node.patternProperties)) patterns.push([p, [...path, 'patternProperties', p], 'key']);
    for (const [pattern, at, target] of patterns) {
      const problem = regExpProblem(pattern);
      if (problem !== undefined) out.push(report(item, 'MCPG019', `pattern ${preview(pattern)} cannot be used in ${label}: ${problem}`, at, target));
    }
    if (Array.isArray(node.enum) && node.enum.length === 0) {
      emptyEnum = true;
      warnings.push(report(item, 'MCPG190', `${label}: "enum" is empty, so no value is valid; valid JSON Schema 2020-12, served as written (but the official client's ajv refuses to compile it in an output schema)`, [...path, 'enum']));
    }
    if (typeof node.format === 'string' && !KNOWN_FORMATS.has(node.format)) {
      unknownFormat = true;
      // JSON Schema 2020-12 §7.2.3: an unknown format must not fail validation; it is an annotation,
      // ignored at run time (as SDK 2.4 does). A warning, so a typo still shows.
      const known = [...KNOWN_FORMATS];
      const hint = didYouMean(node.format, known);
      const d = report(item, 'MCPG111', `unknown format ${JSON.stringify(node.format)} in ${label} is not checked (values are accepted as if it were absent); ${hint ? `did you mean "${hint}"?` : `known formats: ${known.join(', ')}`}`, [...path, 'format']);
      warnings.push(hint === undefined ? d : withFix(d, fixOf(`Change to "${hint}"`, [replaceScalarEdit(item.source, [...item.path, ...path, 'format'], hint)])));
    }
    if (typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, refRoot, defs);
      if (target.kind === 'unresolved') {
        const hint = refHint(item.source, [...item.path, ...path, '$ref'], node.$ref, [...defs.keys()]);
        out.push(withFix(report(item, 'MCPG023', `$ref ${JSON.stringify(node.$ref)} does not resolve in ${label}: ${target.reason}${hint?.message ?? ''}`, [...path, '$ref']), hint?.fix));
      }
    }
    if (Array.isArray(node.required) && isObjectSchema(node.properties)) {
      const props = node.properties;
      node.required.forEach((name, i) => {
        if (typeof name === 'string' && !Object.hasOwn(props, name) && !matchesPatternProperty(node.patternProperties, name)) {
          out.push(report(item, 'MCPG021', `"required" names "${name}", which is not among the properties (${Object.keys(props).join(', ') || 'none'}) in ${label}`, [...path, 'required', i]));
        }
      });
    }
  });
  out.push(...metaSchemaProblems(item, schema, label, dialect));
  if (out.length > 0) return [...out, ...warnings];
  const compiled = unknownFormat ? withoutUnknownFormats(schema) : schema;
  return [...warnings, ...compileAndCheckValues(item, emptyEnum ? withoutEmptyEnums(compiled) : compiled, defs, label, dialect)];
}

function withoutEmptyEnums(schema: JsonObjectSchema): JsonObjectSchema {
  return JSON.parse(JSON.stringify(schema), (_key, v: unknown) => {
    if (!isObjectSchema(v) || !Array.isArray(v.enum) || v.enum.length > 0) return v;
    const { enum: _empty, ...rest } = v;
    return rest.not === undefined ? { ...rest, not: {} } : { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { not: {} }] };
  }) as JsonObjectSchema;
}

function compileAndCheckValues(item: Located<JsonObjectSchema>, schema: JsonObjectSchema, defs: ReadonlyMap<string, JsonSchema>, label: string, dialect: Dialect): Diagnostic[] {
  // A spec $defs entry with an unknown format is warned about where it is written; here it is stripped too.
  const bundled = withoutUnknownFormats(bundleSchema(schema, defs));
  const own = isObjectSchema(schema.$defs) ? schema.$defs : {};
  // What ajv would compile: the copied spec $defs stubbed (each is checked where it is written), so one
  // `anyOf` in a def it refers to no longer sends a plain schema to ajv (GitHub's spec: 466 → ~850 of 969 defs plain).
  const compiled = withCopiedDefsStubbed(bundled, own);
  const lenient: Diagnostic[] = [];
  const problems = (isPlainSchema(compiled, KNOWN_FORMATS) ? [] : compile(strict(dialect), compiled)).flatMap(({ message, path }) => {
    // A spec $defs entry copied in by the bundle is checked (and reported) where it is written.
    if (path[0] === '$defs' && typeof path[1] === 'string' && !Object.hasOwn(own, path[1])) return [];
    const target = path.length > 0 && isKeywordPath(path) ? 'key' : 'value';
    if (validAsWritten(message, compiled, path)) {
      lenient.push(report(item, 'MCPG190', `${label}: ${message.replace(/^strict mode: /, '')}; valid JSON Schema 2020-12, served as written`, path, target));
      return [];
    }
    return [report(item, 'MCPG019', `${label} does not compile: ${message}`, path, target)];
  });
  if (problems.length > 0) return [...problems, ...lenient];
  return [...lenient, ...checkValues(item, schema, bundled, label, dialect)];
}

/**
 * Strict ajv's findings about schemas that are valid 2020-12 and mean what they say, which a hand-written
 * or imported schema may well contain: a keyword with no `type` at all beside it (`properties` alone; a
 * keyword beside a `type` it cannot apply to stays MCPG019: it is ignored, surely by mistake), `if`
 * without `then`/`else`, a tuple without item bounds. Warnings (MCPG190), as `enum: []` is (checkSchema).
 */
function validAsWritten(message: string, compiled: JsonObjectSchema, path: readonly (string | number)[]): boolean {
  if (/^strict mode: "prefixItems" is \d+-tuple/.test(message) || /^strict mode: "if" without "then" and "else" is ignored/.test(message)) return true;
  if (!/^strict mode: missing type "[^"]+" for keyword /.test(message)) return false;
  const node = valueAt(compiled, KNOWN_KEYWORDS.includes(String(path[path.length - 1])) ? path.slice(0, -1) : path);
  return isObjectSchema(node) && node.type === undefined;
}

/** True when the path ends in a keyword (its key is the place to point at), not in a subschema. */
function isKeywordPath(path: readonly (string | number)[]): boolean {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  return typeof last === 'string' && KNOWN_KEYWORDS.includes(last) && parent !== 'properties' && parent !== '$defs' && parent !== 'patternProperties' && parent !== 'dependentSchemas';
}

/**
 * Every place the schema breaks the 2020-12 meta-schema (a keyword with a value of the wrong kind),
 * one diagnostic per place, at the offending keyword's value.
 */
function metaSchemaProblems(item: Located<JsonObjectSchema>, schema: JsonObjectSchema, label: string, dialect: Dialect): Diagnostic[] {
  const errors = metaErrors(schema, dialect);
  if (errors.length === 0) return [];
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPlace.get(e.instancePath) ?? [];
    list.push(e);
    byPlace.set(e.instancePath, list);
  }
  const out: Diagnostic[] = [];
  for (const [pointer, errors] of byPlace) {
    const path = pointerToPath(pointer);
    // An entry of a `type` list: the message for the whole `type` covers it.
    if (typeof path[path.length - 1] === 'number' && path[path.length - 2] === 'type' && byPlace.has(pointer.slice(0, pointer.lastIndexOf('/')))) continue;
    const keyword = String(path[path.length - 1] ?? 'schema');
    const value = valueAt(schema, path);
    let message: string;
    const misplaced = misplacedRequired(item.source, [...item.path, ...path], value, label);
    if (misplaced !== undefined) {
      out.push(withFix(report(item, 'MCPG019', misplaced.message, path), misplaced.fix));
      continue;
    }
    if (keyword === 'type' && path[path.length - 2] !== 'properties' && (typeof value === 'string' || Array.isArray(value))) {
      const bad = (Array.isArray(value) ? value : [value]).find((t) => typeof t !== 'string' || !SIMPLE_TYPES.includes(t));
      const hint = typeof bad === 'string' ? (TYPE_ALIASES[bad.toLowerCase()] ?? didYouMean(bad, SIMPLE_TYPES)) : undefined;
      message = `${JSON.stringify(bad ?? value)} is not a JSON Schema type in ${label}; ${hint ? `did you mean "${hint}"?` : `types are ${SIMPLE_TYPES.join(', ')}`}`;
    } else {
      // The most specific error: not the "must match a schema in anyOf" that sums the others up.
      const e = errors.find((x) => x.keyword !== 'anyOf' && x.keyword !== 'oneOf') ?? errors[0]!;
      message = `"${keyword}" ${e.message ?? 'is invalid'} in ${label}, got ${describe(value)}`;
    }
    out.push(report(item, 'MCPG019', message, path));
  }
  return out;
}

/**
 * Meta-schema errors by schema shape (schema-shape.ts): the same shapes recur across tools and runs of the
 * rules, and the meta-schema asks of a prose string only that it is one. By shape, not by the whole text:
 * an edit of a description in `mcpgen lsp` would otherwise add an entry per keystroke (issue 47).
 */
const metaOutcomes = boundedMap<string, readonly ErrorObject[]>();

function metaErrors(schema: JsonObjectSchema, dialect: Dialect): readonly ErrorObject[] {
  const key = schemaShape(schema);
  let errors = metaOutcomes.get(key);
  if (errors === undefined) {
    try {
      if (schema.$schema === undefined || schema.$schema === META_2020) errors = precompiledMeta(schema) === true ? [] : structuredClone(precompiledMeta.errors ?? []);
      else errors = strict(dialect).validateSchema(schema) === true ? [] : [...(strict(dialect).errors ?? [])];
    } catch {
      errors = []; // an unknown $schema: the compile reports it
    }
    metaOutcomes.set(key, errors);
  }
  return errors;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const seg of path) v = isObjectSchema(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

/** `default`, `const`, `enum` and `examples` must themselves satisfy the schema they sit in. */
function checkValues(item: Located<JsonObjectSchema>, schema: JsonObjectSchema, bundled: JsonObjectSchema, label: string, dialect: Dialect): Diagnostic[] {
  const out: Diagnostic[] = [];
  walkSchema(schema, ({ schema: node, path }) => {
    if (!isObjectSchema(node)) return;
    const check = (keyword: string, value: unknown, at: (string | number)[], strip: readonly string[]) => {
      const rest: Record<string, unknown> = { ...node };
      for (const k of strip) delete rest[k];
      if (typeof rest.$ref === 'string' && bundled.$defs !== undefined) rest.$defs = { ...(isObjectSchema(rest.$defs) ? rest.$defs : {}), ...(bundled.$defs as object) };
      const error = validateValue(rest, value, dialect);
      if (error !== undefined) out.push(report(item, 'MCPG022', `${keyword} value ${preview(value)} is invalid against its schema in ${label}: ${error}`, [...path, ...at]));
    };
    if ('default' in node) check('default', node.default, ['default'], ['default', 'examples']);
    if ('const' in node) check('const', node.const, ['const'], ['const', 'default', 'examples', 'enum']);
    if (Array.isArray(node.enum)) node.enum.forEach((v, i) => check('enum', v, ['enum', i], ['enum', 'const', 'default', 'examples']));
    if (Array.isArray(node.examples)) node.examples.forEach((v, i) => check('examples', v, ['examples', i], ['examples', 'default']));
  });
  return out;
}

/** What keeps a schema from compiling, and where (a path inside the compiled schema). */
interface CompileProblem {
  readonly message: string;
  readonly path: (string | number)[];
}

/** Compile outcomes by schema text less annotations: large specs repeat shapes (pagination, ids, windows). */
const compileOutcomes = boundedMap<string, CompileProblem[]>();

/** Keywords that never change what a schema compiles to. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

function compile(ajv: Ajv2020, schema: JsonObjectSchema): CompileProblem[] {
  const key = JSON.stringify(schema, (k, v: unknown) => (ANNOTATIONS.has(k) && typeof v !== 'object' ? undefined : v));
  const known = compileOutcomes.get(key);
  if (known !== undefined) return known;
  registerExtensionKeywords(ajv, schema);
  const findings: string[] = [];
  strictFindings = findings;
  try {
    assertValidSchema(ajv, schema, dialectOf(schema) ?? '2020-12');
    ajv.compile(schema);
  } catch (e) {
    findings.push(e instanceof Error ? e.message : String(e));
  } finally {
    strictFindings = undefined;
    ajv.removeSchema(schema);
  }
  const outcome = [...new Set(findings)].map(compileProblem);
  compileOutcomes.set(key, outcome);
  return outcome;
}

/**
 * ajv names the place as `at "#/properties/a"` or `at path "#/…"` (the subschema) and often the
 * keyword (`for keyword "minimum"`, `"prefixItems" is 1-tuple`): together, the keyword's position.
 */
function compileProblem(text: string): CompileProblem {
  const at = /\s+at (?:path )?"#([^"]*)"/.exec(text);
  const path = at ? pointerToPath(decodeURIComponentSafe(at[1]!)) : [];
  const keyword = /for keyword "([^"]+)"/.exec(text)?.[1] ?? /^strict mode: "([^"]+)" is/.exec(text)?.[1];
  if (keyword !== undefined && KNOWN_KEYWORDS.includes(keyword)) path.push(keyword);
  const message = (at ? text.replace(at[0], '') : text).trim();
  return { message, path };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Why `value` is invalid against a 2020-12 `schema` (which must hold no `$ref`), as MCPG022 says it; undefined: valid. */
export function valueProblem(schema: JsonObjectSchema, value: unknown): string | undefined {
  return validateValue(schema, value, '2020-12');
}

/** Compiled value validators by schema text: the same small schemas recur across tools. */
const valueValidators = boundedMap<string, ((v: unknown) => string | undefined) | null>();

function validateValue(schema: JsonObjectSchema, value: unknown, dialect: Dialect): string | undefined {
  // Values of plain leaf schemas (type, enum, bounds) are checked without ajv; ajv judges the rest and words every error.
  if (plainlyValid(schema, value)) return undefined;
  const key = dialect + JSON.stringify(schema);
  let validate = valueValidators.get(key);
  if (validate === undefined) {
    const ajv = lenient(dialect);
    registerExtensionKeywords(ajv, schema);
    try {
      assertValidSchema(ajv, schema, dialect);
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

/** How many outcomes the schema rules keep by schema text (meta-schema, compile, value validators): bounded, and flat across edits of prose. */
export function schemaOutcomeEntries(): number {
  return metaOutcomes.size + compileOutcomes.size + valueValidators.size;
}

/** A keyword name ajv's addKeyword accepts (it throws on any other). */
const AJV_KEYWORD_NAME = /^[a-z_$][a-z0-9_$:-]*$/i;

/**
 * `x-*` keywords are annotations; strict ajv must be told about each before it compiles a schema. A name
 * ajv cannot register (`x-a.b`; checkSchema reports it) is left out rather than thrown on.
 */
function registerExtensionKeywords(ajv: Ajv2020, schema: JsonSchema): void {
  for (const k of collectExtensionKeywords(schema)) if (AJV_KEYWORD_NAME.test(k) && !ajv.getKeyword(k)) ajv.addKeyword({ keyword: k });
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

/** A name `patternProperties` admits is a property `required` may name (valid 2020-12; bad patterns are MCPG019). */
function matchesPatternProperty(patterns: unknown, name: string): boolean {
  if (typeof patterns !== 'object' || patterns === null) return false;
  return Object.keys(patterns).some((p) => {
    try {
      return new RegExp(p, 'u').test(name);
    } catch {
      return false;
    }
  });
}
