// A value a JSON Schema (2020-12, the subset imported OpenAPI descriptions use) accepts: every property
// present (optional ones too, to the depth limit), so a call exercises every parameter of an operation.
import fc from 'fast-check';

type Obj = Record<string, unknown>;

const FORMATS: Record<string, string> = {
  'date-time': '2026-12-04T08:00:00Z',
  date: '2026-12-04',
  time: '08:00:00Z',
  email: 'a@example.com',
  uuid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  'uri-reference': '/x',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  byte: 'aGk=',
};

export function sample(schema: unknown, defs: Readonly<Record<string, unknown>>, depth = 0): unknown {
  if (schema === true || schema === undefined) return 'x';
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Obj;
  if (typeof s.$ref === 'string') return sample(defs[s.$ref.replace(/^#\/(\$defs|definitions)\//, '')], defs, depth);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? s.enum[0];
  if (s.default !== undefined && depth > 0) return s.default;
  if (Array.isArray(s.allOf)) {
    // AWS wraps a scalar `$ref` in allOf to give it a description: the members are merged only when objects.
    const parts = s.allOf.filter((m) => !annotationOnly(m)).map((m) => sample(m, defs, depth));
    const scalar = parts.find((p) => typeof p !== 'object' || p === null || Array.isArray(p));
    return scalar !== undefined ? scalar : Object.assign({}, ...parts, objectPart(s, defs, depth));
  }
  for (const key of ['oneOf', 'anyOf'] as const) if (Array.isArray(s[key])) return sample(s[key][0], defs, depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return objectPart(s, defs, depth);
    case 'array':
      return depth > 4 ? [] : [sample(s.items, defs, depth + 1)];
    case 'integer':
      return typeof s.minimum === 'number' ? Math.ceil(s.minimum) : typeof s.exclusiveMinimum === 'number' ? Math.floor(s.exclusiveMinimum) + 1 : 7;
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 7.5;
    case 'boolean':
      return true;
    case 'string': {
      if (typeof s.pattern === 'string') return matching(s.pattern, s);
      const base = typeof s.format === 'string' && FORMATS[s.format] !== undefined ? FORMATS[s.format]! : 'a b/c?d';
      const long = typeof s.minLength === 'number' && base.length < s.minLength ? base.padEnd(s.minLength, 'x') : base;
      return typeof s.maxLength === 'number' ? long.slice(0, s.maxLength) : long;
    }
    case 'null':
      return null;
    default:
      return 'x';
  }
}

function objectPart(s: Obj, defs: Readonly<Record<string, unknown>>, depth: number): Obj {
  const out: Obj = {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const props = (s.properties ?? {}) as Obj;
  for (const [k, v] of Object.entries(props)) {
    // Past the depth limit only required properties (recursive schemas end there).
    if (depth > 3 && !required.has(k)) continue;
    if ((v as Obj | null)?.readOnly === true && depth > 0 && !required.has(k)) continue;
    out[k] = sample(v, defs, depth + 1);
  }
  return out;
}

/**
 * Each pattern's string, by pattern and bounds: the search below is seeded, so it finds the same string
 * every time, and building fast-check's arbitrary for a pattern (a negated class filters every character
 * it draws) cost the corpus slice, whose APIs repeat their name patterns in most tools, 12 % of its CPU.
 */
const found = new Map<string, string>();

/** A string the pattern (ECMA-262, `u` flag, as ajv reads it) matches, within the length bounds; the same for a pattern on every run. */
function matching(pattern: string, s: Obj): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const key = `${min}\0${max}\0${pattern}`;
  let value = found.get(key);
  if (value === undefined) found.set(key, (value = search(pattern, min, max)));
  return value;
}

function search(pattern: string, min: number, max: number): string {
  try {
    const re = new RegExp(pattern, 'u');
    // Not `.` or `..`: as a path argument the proxy refuses a dot-segment (by design), whatever the pattern allows.
    const fits = (x: string) => [...x].length >= min && [...x].length <= max && x !== '.' && x !== '..' && re.test(x);
    const hit = fc.sample(fc.stringMatching(re), { seed: 52, numRuns: 50 }).find(fits);
    if (hit !== undefined) return hit;
  } catch {
    // a pattern fast-check cannot read: the plain sample below
  }
  return 'x'.repeat(Math.max(1, min));
}

/** `{description: …}` beside a `$ref` in an allOf: says nothing of the value. */
function annotationOnly(m: unknown): boolean {
  return typeof m === 'object' && m !== null && Object.keys(m).every((k) => ['description', 'title', 'deprecated', 'readOnly', 'writeOnly', 'default', 'examples'].includes(k));
}
