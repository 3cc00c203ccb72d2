// Input, output and elicitation-answer validation on the server. An interpreting validator
// (@cfworker/json-schema, the one the SDK itself picks on Cloudflare Workers) instead of ajv: ajv
// compiles every schema with `new Function`, which costs start-up time, and which runtimes without
// code generation from strings (workerd, `node --disallow-code-generation-from-strings`) refuse.
// Messages keep the shape clients and tests already see ("arguments/state must match pattern …").
import { Validator as SchemaValidator, type OutputUnit } from '@cfworker/json-schema';
import { quickCheck } from './validators-quick.js';
import { dialectOf } from '../../shared/dialects.js';

export type Validator = (value: unknown) => string | undefined;

/** Each schema is prepared once (lazily, see create-server.ts); validating never generates code. */
export function createValidatorCompiler(): (schema: Readonly<Record<string, unknown>>, dataVar?: string) => Validator {
  return (schema, dataVar = 'arguments') => {
    // The validator annotates the schema objects it is given: a copy keeps the definition (which is
    // what tools/list sends, and may be frozen) untouched.
    const root = structuredClone(schema) as Record<string, unknown>;
    // A schema naming draft-07 or 2019-09 is validated in its own dialect (`items` arrays, `$ref` siblings);
    // check refused any other `$schema` (MCPG110), so 2020-12 is only the fallback for hand-written definitions.
    const dialect = dialectOf(schema) ?? '2020-12';
    const validator = new SchemaValidator(root as never, dialect, false);
    // Valid data of a simple 2020-12 schema is accepted without cfworker's walk; everything else is cfworker's (validators-quick.ts).
    const quick = dialect === '2020-12' ? quickCheck(schema) : undefined;
    return (value) => {
      if (quick !== undefined && quickYes(quick, value)) return undefined;
      try {
        const result = validator.validate(value);
        return result.valid ? undefined : errorsText(result.errors, root, dataVar);
      } catch (e) {
        // A recursive schema (a tree) recurses as deep as the data, and uniqueItems/const compare deeply:
        // data nested deeper than the stack is refused as invalid, never a crash.
        if (e instanceof RangeError) return `${dataVar} are nested too deeply to validate`;
        throw e;
      }
    };
  };
}

/** The quick check's yes; data nested deeper than its stack (a recursive `$ref`) is cfworker's to judge. */
function quickYes(quick: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return quick(value);
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

/** Keywords whose error only says "something below failed": the failure below is reported instead. */
const WRAPPERS = new Set(['$ref', '$recursiveRef', 'properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'allOf', 'then', 'else', 'dependentSchemas', 'dependencies', 'propertyNames', 'contains', 'false']);

/** "<dataVar><path> <what is wrong>", joined by ", " (the form ajv's errorsText gives). */
function errorsText(errors: readonly OutputUnit[], root: Record<string, unknown>, dataVar: string): string {
  const lines: string[] = [];
  for (const e of errors) {
    if (WRAPPERS.has(e.keyword)) continue;
    const line = `${dataVar}${instancePath(e)} ${message(e, root)}`;
    if (!lines.includes(line)) lines.push(line);
  }
  // Only wrappers (e.g. `false` as a whole subschema): say what cfworker said, at the deepest place.
  if (lines.length === 0 && errors.length > 0) {
    const e = errors[errors.length - 1]!;
    lines.push(`${dataVar}${instancePath(e)} ${e.error}`);
  }
  return lines.join(', ');
}

/** cfworker's instance locations are URI fragments ("#/a%20b"); ajv's paths are plain pointers ("/a b"). */
function instancePath(e: OutputUnit): string {
  const fragment = e.instanceLocation.replace(/^#/, '');
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function message(e: OutputUnit, root: Record<string, unknown>): string {
  const param = keywordValue(root, e.keywordLocation);
  switch (e.keyword) {
    case 'type':
      return `must be ${Array.isArray(param) ? param.join(',') : String(param ?? /Expected "(.*)"/.exec(e.error)?.[1] ?? '')}`;
    case 'required':
      return `must have required property '${/property "(.*)"\.$/.exec(e.error)?.[1] ?? ''}'`;
    case 'pattern':
      return typeof param === 'string' ? `must match pattern "${param}"` : 'must match pattern';
    case 'format':
      return typeof param === 'string' ? `must match format "${param}"` : 'must match format';
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'const':
      return 'must be equal to constant';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `must NOT have additional properties (${/Property "(.*)" does not/.exec(e.error)?.[1] ?? ''})`;
    case 'minimum':
      return `must be >= ${String(param)}`;
    case 'maximum':
      return `must be <= ${String(param)}`;
    case 'exclusiveMinimum':
      return `must be > ${String(param)}`;
    case 'exclusiveMaximum':
      return `must be < ${String(param)}`;
    case 'minLength':
      return `must NOT have fewer than ${String(param)} characters`;
    case 'maxLength':
      return `must NOT have more than ${String(param)} characters`;
    case 'minItems':
      return `must NOT have fewer than ${String(param)} items`;
    case 'maxItems':
      return `must NOT have more than ${String(param)} items`;
    case 'multipleOf':
      return `must be multiple of ${String(param)}`;
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'not':
      return 'must NOT be valid';
    default:
      return e.error;
  }
}

/**
 * The keyword's value in the schema. cfworker's location names each `$ref` it went through
 * (`#/properties/body/$ref/properties/tags/$ref/minItems`): a `$ref` segment continues at its local target,
 * so a bound behind one is printed, not `undefined`.
 */
function keywordValue(root: Record<string, unknown>, location: string): unknown {
  if (!location.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of location.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
    if (key === '$ref') node = node === '#' ? root : typeof node === 'string' && node.startsWith('#/') ? keywordValue(root, node) : undefined;
  }
  return node;
}
