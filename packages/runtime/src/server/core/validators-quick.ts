// A quick yes for the common case: most arguments are valid, and most tool schemas use a small part of
// JSON Schema (types, properties, required, enum, bounds). For such a schema this builds a check from
// closures (no code generation) that answers "valid" without allocating; @cfworker/json-schema walks
// the schema building location strings and error lists even for valid data (8 KB per call for a
// 6-property object). It never decides "invalid": anything it does not accept goes to cfworker, which
// gives the verdict and the message. So a check here is never more lenient than cfworker's for the
// same keyword (validate.js, draft 2020-12), only stricter or the same, and any keyword it does not
// know (patternProperties, combinators, $id, …) leaves the whole schema to cfworker. `$ref` is known
// for the root's own `#/$defs/<name>` (what the OpenAPI import and shared $defs write), and `format`
// through cfworker's own format table (a format it does not know is an annotation there too).
import { format as FORMATS } from '@cfworker/json-schema';

type Check = (value: unknown) => boolean;

/** The root schema (the base of `#/$defs/…` references) and the checks of the references compiled so far. */
interface Scope {
  readonly root: Readonly<Record<string, unknown>>;
  readonly refs: Map<string, Check>;
}

/** Keywords that never make a value invalid (draft 2020-12 annotations). */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', '$schema', 'deprecated', 'readOnly', 'writeOnly']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A check that returns true only for values cfworker accepts, or undefined when the schema uses more than this knows. */
export function quickCheck(schema: unknown): Check | undefined {
  try {
    return compile(schema, 0, { root: isPlain(schema) ? schema : {}, refs: new Map() });
  } catch (e) {
    if (e === UNSUPPORTED) return undefined;
    throw e;
  }
}

const UNSUPPORTED = Symbol('unsupported schema');

function unsupported(): never {
  throw UNSUPPORTED;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const isPrimitive = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isBound = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function compile(schema: unknown, depth: number, scope: Scope): Check {
  if (schema === true) return () => true;
  if (!isPlain(schema) || depth > 32) unsupported();
  const checks: Check[] = [];
  let object: ObjectRules | undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === '$defs' || key === 'definitions') {
      definitions(schema, key, value, scope);
    } else if (key === 'format') {
      const check = formatCheck(value);
      if (check !== undefined) checks.push(check);
    } else if (OBJECT_KEYWORDS.has(key)) {
      object ??= { properties: undefined, required: [], additional: undefined, min: undefined, max: undefined };
      objectRule(object, key, value, depth, scope);
    } else checks.push(keywordCheck(key, value, depth, scope));
  }
  if (object !== undefined) checks.push(objectCheck(object));
  return (v) => {
    if (!isJson(v)) return false;
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

/** Keywords checked together (objectRule gathers them, objectCheck checks them in one pass). */
const OBJECT_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties']);

/** The check of one keyword that is neither an annotation nor an object keyword; unsupported() for the rest. */
function keywordCheck(key: string, value: unknown, depth: number, scope: Scope): Check {
  switch (key) {
    case 'type':
      return typeCheck(value);
    case 'enum': {
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPrimitive)) unsupported();
      const allowed = [...value] as unknown[];
      return (v) => allowed.includes(v);
    }
    case 'const':
      if (!isPrimitive(value)) unsupported();
      return (v) => v === value;
    case 'minLength':
    case 'maxLength': {
      if (!isCount(value)) unsupported();
      const min = key === 'minLength';
      return (v) => typeof v !== 'string' || (min ? codePoints(v) >= value : codePoints(v) <= value);
    }
    case 'pattern':
      return patternCheck(value);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      if (!isBound(value)) unsupported();
      const test = BOUNDS[key]!;
      return (v) => typeof v !== 'number' || test(v, value);
    }
    case 'minItems':
    case 'maxItems': {
      if (!isCount(value)) unsupported();
      const min = key === 'minItems';
      return (v) => !Array.isArray(v) || (min ? v.length >= value : v.length <= value);
    }
    case 'items': {
      // 2020-12 `items` is one schema for every element (the array form is an older draft's tuple).
      if (Array.isArray(value)) unsupported();
      const item = compile(value, depth + 1, scope);
      return (v) => {
        if (!Array.isArray(v)) return true;
        for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
        return true;
      };
    }
    case '$ref':
      return refCheck(value, depth, scope);
    default:
      unsupported();
  }
}

const LOCAL_REF = /^#\/(\$defs|definitions)\/([A-Za-z0-9_.-]+)$/;

/**
 * A reference to one of the root's definitions, compiled once (a recursive schema refers to itself
 * through the memo). Names outside [A-Za-z0-9_.-] would need cfworker's URI-fragment normalisation: its call.
 */
function refCheck(value: unknown, depth: number, scope: Scope): Check {
  const match = typeof value === 'string' ? LOCAL_REF.exec(value) : null;
  if (match === null) unsupported();
  const known = scope.refs.get(value as string);
  if (known !== undefined) return known;
  const defs = scope.root[match[1]!];
  if (!isPlain(defs) || !Object.hasOwn(defs, match[2]!)) unsupported();
  let target: Check = () => false;
  const check: Check = (v) => target(v);
  scope.refs.set(value as string, check);
  target = compile(defs[match[2]!], depth + 1, scope);
  return check;
}

/**
 * The root's definitions, each compiled (a keyword this does not know anywhere in them, `$id` included,
 * leaves the schema to cfworker, whose references could then resolve elsewhere); definitions below the
 * root are cfworker's.
 */
function definitions(schema: Record<string, unknown>, key: string, value: unknown, scope: Scope): void {
  if (schema !== scope.root || !isPlain(value)) unsupported();
  for (const name of Object.keys(value)) refCheck(`#/${key}/${name}`, 0, scope);
}

/** cfworker checks a string against the formats it knows and ignores the others (int64, …). */
function formatCheck(value: unknown): Check | undefined {
  if (typeof value !== 'string') unsupported();
  if (!(value in FORMATS)) return undefined;
  // An inherited name (`constructor`, `toString`) is called by cfworker as if a format: its call.
  if (!Object.hasOwn(FORMATS, value)) unsupported();
  const test = FORMATS[value]!;
  return (v) => typeof v !== 'string' || test(v);
}

function patternCheck(value: unknown): Check {
  if (typeof value !== 'string') unsupported();
  let regex: RegExp;
  try {
    regex = new RegExp(value, 'u');
  } catch {
    unsupported();
  }
  return (v) => typeof v !== 'string' || regex.test(v);
}

const BOUNDS: Record<string, (v: number, bound: number) => boolean> = {
  minimum: (v, b) => v >= b,
  maximum: (v, b) => v <= b,
  exclusiveMinimum: (v, b) => v > b,
  exclusiveMaximum: (v, b) => v < b,
};

function typeCheck(value: unknown): Check {
  const names = typeof value === 'string' ? [value] : Array.isArray(value) ? value : unsupported();
  if (names.length === 0 || !names.every((n) => typeof n === 'string' && TYPES.has(n))) unsupported();
  const tests = names.map((n) => TYPE_TESTS[n as string]!);
  return tests.length === 1 ? tests[0]! : (v) => tests.some((t) => t(v));
}

const TYPE_TESTS: Record<string, Check> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => isPlain(v),
};

interface ObjectRules {
  properties: Map<string, Check> | undefined;
  required: readonly string[];
  /** false: no other keys; a check: other keys' values; undefined: anything. */
  additional: false | Check | undefined;
  min: number | undefined;
  max: number | undefined;
}

function objectRule(rules: ObjectRules, key: string, value: unknown, depth: number, scope: Scope): void {
  switch (key) {
    case 'properties':
      if (!isPlain(value)) unsupported();
      rules.properties = new Map(Object.entries(value).map(([name, sub]) => [name, compile(sub, depth + 1, scope)]));
      break;
    case 'required':
      if (!Array.isArray(value) || !value.every((k) => typeof k === 'string')) unsupported();
      rules.required = [...(value as string[])];
      break;
    case 'additionalProperties':
      rules.additional = value === false ? false : compile(value, depth + 1, scope);
      break;
    case 'minProperties':
    case 'maxProperties':
      if (!isCount(value)) unsupported();
      if (key === 'minProperties') rules.min = value;
      else rules.max = value;
      break;
  }
}

function objectCheck(rules: ObjectRules): Check {
  const { properties, required, additional, min, max } = rules;
  return (v) => {
    // Keywords of objects apply only to objects (cfworker: instanceType === 'object').
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return true;
    if (!isPlain(v)) return false;
    for (const key of required) if (!Object.hasOwn(v, key)) return false;
    for (const key in v) {
      // An enumerable inherited key (a polluted prototype) is judged differently per keyword: cfworker's call.
      if (!Object.hasOwn(v, key)) return false;
      const sub = properties?.get(key);
      if (sub !== undefined) {
        if (!sub(v[key])) return false;
      } else if (additional === false) {
        return false;
      } else if (additional !== undefined && !additional(v[key])) {
        return false;
      }
    }
    if (min === undefined && max === undefined) return true;
    const count = Object.keys(v).length;
    return (min === undefined || count >= min) && (max === undefined || count <= max);
  };
}

/** Only what JSON.parse makes; anything else (undefined, a function, NaN, a Date) is cfworker's to judge. */
function isJson(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      return v === null || Array.isArray(v) || isPlain(v);
    default:
      return false;
  }
}

/** String length as JSON Schema counts it: code points (cfworker's ucs2length). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}
