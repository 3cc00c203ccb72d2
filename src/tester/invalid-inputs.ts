// Ways to break valid arguments, read off the input schema's top level: each applied to a valid value
// fast-check generated (and shrinks), then kept only when the schema really refuses the result.
import { resolveLocalRef } from './schema-arbitrary.js';

type Schema = Record<string, unknown>;
type Args = Record<string, unknown>;

export interface Mutation {
  /** The argument the broken value concerns: a correct refusal names it. */
  readonly argument: string;
  /** What was broken, for the report: `missing required`, `wrong type`, `below minimum`, … */
  readonly what: string;
  readonly apply: (args: Args) => Args;
}

function isSchema(s: unknown): s is Schema {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

function deref(root: Schema, s: unknown): Schema {
  for (let i = 0; i < 8 && isSchema(s) && typeof s.$ref === 'string'; i++) s = { ...(resolveLocalRef(root, s.$ref) as Schema | undefined), ...s, $ref: undefined };
  return isSchema(s) ? s : {};
}

function set(key: string, value: unknown): (args: Args) => Args {
  return (args) => ({ ...args, [key]: value });
}

// A value of another JSON type than the schema names.
const WRONG: Record<string, unknown> = { string: 12345, integer: 'not a number', number: 'not a number', boolean: 'yes', object: 'not an object', array: 'not an array', null: 0 };

export function mutationsOf(input: Schema): Mutation[] {
  const out: Mutation[] = [];
  const properties = isSchema(input.properties) ? input.properties : {};
  for (const name of Array.isArray(input.required) ? (input.required as string[]) : []) {
    out.push({ argument: name, what: 'missing required argument', apply: ({ [name]: _dropped, ...rest }) => rest });
  }
  for (const [name, raw] of Object.entries(properties)) {
    const s = deref(input, raw);
    const type = typeof s.type === 'string' ? s.type : undefined;
    if (type !== undefined && type in WRONG) out.push({ argument: name, what: `wrong type (not ${type})`, apply: set(name, WRONG[type]) });
    const min = typeof s.minimum === 'number' ? s.minimum : undefined;
    const max = typeof s.maximum === 'number' ? s.maximum : undefined;
    const step = type === 'integer' ? 1 : Math.max(1, Math.abs(min ?? max ?? 1) * 1e-6);
    if (min !== undefined) out.push({ argument: name, what: `below minimum ${min}`, apply: set(name, min - step) });
    if (max !== undefined) out.push({ argument: name, what: `above maximum ${max}`, apply: set(name, max + step) });
    if (typeof s.exclusiveMinimum === 'number') out.push({ argument: name, what: `at exclusiveMinimum ${s.exclusiveMinimum}`, apply: set(name, s.exclusiveMinimum) });
    if (typeof s.exclusiveMaximum === 'number') out.push({ argument: name, what: `at exclusiveMaximum ${s.exclusiveMaximum}`, apply: set(name, s.exclusiveMaximum) });
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push({ argument: name, what: `shorter than minLength ${s.minLength}`, apply: set(name, 'x'.repeat(s.minLength - 1)) });
    if (typeof s.maxLength === 'number') out.push({ argument: name, what: `longer than maxLength ${s.maxLength}`, apply: set(name, 'x'.repeat(s.maxLength + 1)) });
    if (Array.isArray(s.enum)) out.push({ argument: name, what: 'a value outside its enum', apply: set(name, outside(s.enum)) });
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push({ argument: name, what: `fewer than minItems ${s.minItems}`, apply: set(name, []) });
  }
  if (input.additionalProperties === false || input.unevaluatedProperties === false) {
    const extra = ['unexpected', 'extra', 'mcpgen_extra'].find((k) => !(k in properties)) ?? 'mcpgen_extra_argument';
    out.push({ argument: extra, what: 'an extra argument the schema closes out', apply: set(extra, 1) });
  }
  return out;
}

function outside(values: readonly unknown[]): unknown {
  if (values.every((v) => typeof v === 'number')) return Math.max(...(values as number[])) + 1;
  const taken = new Set(values.map((v) => JSON.stringify(v)));
  return ['not-in-enum', 'NOT_IN_ENUM', 'zz-not-in-enum'].find((v) => !taken.has(JSON.stringify(v)))!;
}
