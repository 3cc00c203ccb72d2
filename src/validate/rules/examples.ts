// `examples:` of tools and prompts (MCPG200–202): each is a call the item accepts, and its expected answer
// can be met. `mcpgen test` runs them first; a bad example would only ever fail there, so say it here.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { dialectOf, type Dialect } from '@mcpgen/runtime/shared/dialects';
import { bundleSchema, isObjectSchema } from '../../common/json-schema.js';
import { didYouMean } from '../../common/suggest.js';
import { boundedMap } from '../../common/bounded-map.js';
import { formatPath, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { JsonPath } from '../../parse/source.js';
import { report, where } from '../report.js';
import { describe, pointerToPath } from '../spec-format.js';
import type { JsonObjectSchema, JsonSchema, RawPrompt, RawTool } from '../spec-types.js';
import { at, type Located, type SpecView } from '../view.js';
import { createAjv, specDefsMap } from './json-schema.js';
import { relaxedForSubset } from './subset-schema.js';

/** What the model takes for a tool without `input:` (model/build.ts): no arguments at all. */
const NO_INPUT: JsonObjectSchema = { type: 'object', additionalProperties: false };

export function checkExamples(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const defs = specDefsMap(view);
  for (const tool of view.tools) if (tool.value.examples !== undefined) out.push(...toolExamples(tool, defs));
  for (const prompt of view.prompts) if (prompt.value.examples !== undefined) out.push(...promptExamples(prompt));
  return out;
}

/** `example "name"` or `example 2` (by position, 1-based): how reports and messages name it. */
export function exampleLabel(name: string | undefined, index: number): string {
  return name === undefined ? `example ${index + 1}` : `example ${JSON.stringify(name)}`;
}

function toolExamples(tool: Located<RawTool>, defs: ReadonlyMap<string, JsonSchema>): Diagnostic[] {
  const examples = tool.value.examples!;
  const owner = `tool ${JSON.stringify(tool.value.name)}`;
  const out = duplicateNames(tool, examples, owner);
  const input = validatorOf(bundleSchema(tool.value.input ?? NO_INPUT, defs));
  const output = tool.value.output === undefined ? undefined : validatorOf(relaxedForSubset(bundleSchema(tool.value.output, defs)));
  examples.forEach((example, i) => {
    const label = `${exampleLabel(example.name, i)} of ${owner}`;
    const place = at(tool, example, 'examples', i);
    const args = example.arguments ?? {};
    for (const e of input?.(args) ?? []) {
      out.push(ajvDiagnostic(place, 'MCPG200', 'arguments', example.arguments !== undefined, args, e, label, 'the input schema', 'an example is a call the tool accepts: change the example or the schema'));
    }
    // An error result is not held to the output schema (nor is it by the SDK).
    if (example.result === undefined || example.isError === true) return;
    for (const e of output?.(example.result) ?? []) {
      out.push(ajvDiagnostic(place, 'MCPG201', 'result', true, example.result, e, label, 'the output schema', '`result` is the part of structuredContent the answer must contain: what it gives must be valid where it stands (leaving properties out is fine)'));
    }
  });
  return out;
}

function promptExamples(prompt: Located<RawPrompt>): Diagnostic[] {
  const examples = prompt.value.examples!;
  const owner = `prompt ${JSON.stringify(prompt.value.name)}`;
  const out = duplicateNames(prompt, examples, owner);
  const declared = (prompt.value.arguments ?? []).map((a) => a.name);
  examples.forEach((example, i) => {
    const label = `${exampleLabel(example.name, i)} of ${owner}`;
    const place = at(prompt, example, 'examples', i);
    const args = example.arguments ?? {};
    for (const name of Object.keys(args)) {
      if (declared.includes(name)) continue;
      const hint = didYouMean(name, declared);
      const known = declared.length === 0 ? 'it declares none' : `it declares ${declared.map((d) => JSON.stringify(d)).join(', ')}`;
      out.push(report(place, 'MCPG200', `${label}: argument ${JSON.stringify(name)} is not declared by the prompt (${known})${hint === undefined ? '' : `; did you mean "${hint}"?`}`, ['arguments', name], 'key'));
    }
    for (const a of prompt.value.arguments ?? []) {
      if (a.required !== true || Object.hasOwn(args, a.name)) continue;
      const segments = example.arguments === undefined ? [] : ['arguments'];
      out.push(report(place, 'MCPG200', `${label}: required argument ${JSON.stringify(a.name)} is missing; an example is a call the prompt accepts, so give it a value`, segments));
    }
  });
  return out;
}

/** Reports name examples: two of one item with the same name could not be told apart. */
function duplicateNames(item: Located<RawTool | RawPrompt>, examples: readonly { readonly name?: string }[], owner: string): Diagnostic[] {
  const first = new Map<string, number>();
  const out: Diagnostic[] = [];
  examples.forEach((e, i) => {
    if (e.name === undefined) return;
    const seen = first.get(e.name);
    if (seen === undefined) first.set(e.name, i);
    else out.push(report(item, 'MCPG202', `example name ${JSON.stringify(e.name)} is used twice in ${owner} (first at ${where(item, ['examples', seen, 'name'])}); reports name examples, so give each its own`, ['examples', i, 'name']));
  });
  return out;
}

/**
 * One diagnostic per ajv error, at the offending value: the missing property's object, the extra key,
 * or the value itself. `written`: the example has `field` (else the example is the place, `{}` the value).
 */
function ajvDiagnostic(place: Located<unknown>, code: 'MCPG200' | 'MCPG201', field: string, written: boolean, value: unknown, e: ErrorObject, label: string, schemaName: string, lesson: string): Diagnostic {
  const inside = pointerToPath(e.instancePath);
  const base: JsonPath = written ? [field, ...inside] : [];
  const name = formatPath([field, ...inside]);
  if (e.keyword === 'required') {
    const missing = String(e.params.missingProperty);
    return report(place, code, `${label}: ${name} lacks ${JSON.stringify(missing)}, which ${schemaName} requires; ${lesson}`, base);
  }
  if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
    const extra = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
    const props = isObjectSchema(e.parentSchema) && isObjectSchema(e.parentSchema.properties) ? Object.keys(e.parentSchema.properties) : [];
    const hint = didYouMean(extra, props);
    const allowed = props.length === 0 ? 'none' : props.join(', ');
    return report(place, code, `${label}: ${formatPath([field, ...inside, extra])} is not a property ${schemaName} allows (allowed: ${allowed})${hint === undefined ? '' : `; did you mean "${hint}"?`}; ${lesson}`, written ? [...base, extra] : [], 'key');
  }
  const said = e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 'must match one of its alternatives'
    : e.keyword === 'enum' && Array.isArray(e.schema) ? `must be one of ${e.schema.map((v) => JSON.stringify(v)).join(', ')}`
    : (e.message ?? 'is invalid');
  return report(place, code, `${label}: ${name} is ${describe(valueAt(value, inside))}, but ${schemaName} says it ${said}; ${lesson}`, base);
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const seg of path) v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

type Check = (value: unknown) => ErrorObject[];
const ajvs = new Map<Dialect, ReturnType<typeof createAjv>>();
const validators = boundedMap<string, Check | null>();

/** Every error of `value` (allErrors), the ones that say what to change; undefined when the schema does not compile (its own rules report it). */
function validatorOf(schema: JsonObjectSchema): Check | undefined {
  const dialect = dialectOf(schema) ?? '2020-12';
  const key = dialect + JSON.stringify(schema);
  let check = validators.get(key);
  if (check === undefined) {
    let ajv = ajvs.get(dialect);
    if (ajv === undefined) ajvs.set(dialect, (ajv = createAjv(dialect, { strict: false, allErrors: true, verbose: true, validateSchema: false })));
    try {
      const fn = ajv.compile(schema);
      check = (value) => {
        try {
          return fn(value) ? [] : significant(fn.errors ?? []);
        } catch {
          return []; // a $ref cycle (MCPG040 reports it)
        }
      };
    } catch {
      check = null;
    } finally {
      ajv.removeSchema(schema);
    }
    validators.set(key, check);
  }
  return check ?? undefined;
}

/** Without the errors of each alternative under an anyOf/oneOf that failed (the combinator's own error says it), `if`'s summary, and repeats. */
function significant(errors: readonly ErrorObject[]): ErrorObject[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (e.keyword === 'if' || combinators.some((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`))) return false;
    const key = `${e.instancePath}\u0000${e.keyword}\u0000${JSON.stringify(e.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
