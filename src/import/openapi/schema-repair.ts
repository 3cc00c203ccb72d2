// Keywords of a description's schema that the spec format cannot take as written, repaired where the
// intent is clear and dropped where it is not: each change is one MCPG191 warning at the keyword in the
// OpenAPI description, and the tool is still served. Structural repairs happen while a schema is
// converted (schema.ts); `default` and `enum` values are judged once every `$defs` entry exists (schema-values.ts).
import type { ImportNote } from './notes.js';

type Obj = Record<string, unknown>;
export type Pointer = readonly (string | number)[];

/** Where the import notes what it changed, and which description node each converted schema came from. */
export interface SchemaSink {
  readonly notes: ImportNote[];
  /** A converted schema object → the JSON pointer of its source in the description. */
  readonly origins: WeakMap<object, Pointer>;
}

export function newSchemaSink(notes: ImportNote[]): SchemaSink {
  return { notes, origins: new WeakMap() };
}

export function note(sink: SchemaSink | undefined, at: Pointer | undefined, message: string): void {
  sink?.notes.push({ code: 'MCPG191', pointer: at ?? [], message });
}

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** A `type` that is no type name (codat's `itemType: {type: {enum: …}}`): dropped. */
export function repairType(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): void {
  if (out.type === undefined) return;
  // nytimes.com's `type: [array, string, null, null]`: a type listed twice is listed once (ajv refuses repeats).
  if (Array.isArray(out.type) && new Set(out.type).size < out.type.length) {
    note(sink, at && [...at, 'type'], `"type" ${JSON.stringify(out.type).slice(0, 80)} lists a type twice: listed once`);
    out.type = [...new Set(out.type)];
  }
  const ok = typeof out.type === 'string' ? TYPES.has(out.type) : Array.isArray(out.type) && out.type.length > 0 && out.type.every((t) => typeof t === 'string' && TYPES.has(t));
  if (ok) return;
  note(sink, at && [...at, 'type'], `"type" ${JSON.stringify(out.type).slice(0, 80)} is not a JSON Schema type: dropped`);
  delete out.type;
}

/** The type a `format` implies (OpenAPI's `{format: int32}` with no type, loket.nl): integer, number or string. */
export function formatType(format: unknown): string | undefined {
  if (typeof format !== 'string') return undefined;
  if (format === 'int32' || format === 'int64') return 'integer';
  if (format === 'float' || format === 'double') return 'number';
  return 'string';
}

/**
 * `{oneOf: [string, number], type: "null"}` (vercel.com) allows nothing: meant as "one of these, or null".
 * The null goes into the alternatives, where it means that.
 */
export function repairNullBeside(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): void {
  const list = Array.isArray(out.oneOf) ? 'oneOf' : Array.isArray(out.anyOf) ? 'anyOf' : undefined;
  if (list === undefined || !(out.type === 'null' || (Array.isArray(out.type) && out.type.length === 1 && out.type[0] === 'null'))) return;
  const branches = out[list] as unknown[];
  if (!branches.some((b) => isTyped(b) && !typesOf(b).includes('null'))) return;
  out[list] = [...branches, { type: 'null' }];
  delete out.type;
  note(sink, at && [...at, 'type'], `"type: null" beside "${list}" of other types allows no value: read as "${list}" with a null alternative`);
}

/**
 * A `{type: null}` branch added to `oneOf`/`anyOf` when no branch takes null (a `oneOf` only when every
 * branch states its types: an untyped or `$ref` one might take null too, and null would then match two).
 */
export function nullAlternative(out: Obj): void {
  const list = Array.isArray(out.oneOf) ? 'oneOf' : Array.isArray(out.anyOf) ? 'anyOf' : undefined;
  if (list === undefined) return;
  const branches = out[list] as unknown[];
  if (branches.some((b) => isTyped(b) && typesOf(b).includes('null'))) return;
  if (list === 'oneOf' && !branches.every(isTyped)) return;
  out[list] = [...branches, { type: 'null' }];
}

/**
 * A `type` beside `oneOf`/`anyOf` whose branches state other types (`{type: integer, oneOf: [{type:
 * string}]}`) contradicts itself; strict ajv refuses it (MCPG019). A branch no value of the type can take
 * is dropped (the values allowed stay the same); when that leaves none, the intent is unclear and the
 * `type` is dropped instead (the branches say what the values are).
 */
export function repairContradiction(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): void {
  if (out.type === undefined || !isTyped(out)) return;
  const own = typesOf(out);
  const fits = (t: string) => own.includes(t) || (t === 'integer' && own.includes('number'));
  for (const list of ['oneOf', 'anyOf'] as const) {
    const branches = out[list];
    if (!Array.isArray(branches)) continue;
    const disjoint = branches.map((b, i) => [b, i] as const).filter(([b]) => isTyped(b) && !typesOf(b).some(fits));
    if (disjoint.length === 0) continue;
    if (disjoint.length === branches.length) {
      note(sink, at && [...at, 'type'], `"type: ${own.join(', ')}" contradicts every branch of "${list}" (${[...new Set(branches.flatMap((b) => typesOf(b as Obj)))].join(', ')}): the type is dropped, the branches say what the values are`);
      delete out.type;
      return;
    }
    for (const [b, i] of disjoint) note(sink, at && [...at, list, i], `branch of "${list}" of type ${typesOf(b as Obj).join(', ')} can never match beside "type: ${own.join(', ')}": dropped (the values allowed are the same)`);
    out[list] = branches.filter((_, i) => !disjoint.some(([, j]) => j === i));
  }
}

/**
 * A subschema applied in place (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`) that lists a type
 * its parent's `type` rules out: plaid.com's `{type: object, allOf: [{$ref}, {type: object, nullable:
 * true}]}`. No value of that type can be valid, so it is dropped from the subschema (the values allowed
 * stay the same); strict ajv refuses it (strictTypes, MCPG019).
 */
export function repairInPlaceTypes(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): void {
  if (!isTyped(out)) return;
  const own = typesOf(out);
  const fits = (t: string) => own.includes(t) || (t === 'integer' && own.includes('number'));
  const narrow = (b: unknown, path: Pointer) => {
    if (!isTyped(b)) return;
    const types = typesOf(b);
    const kept = types.filter(fits);
    if (kept.length === 0 || kept.length === types.length) return;
    b.type = kept.length === 1 ? kept[0] : kept;
    note(sink, at && [...at, ...path, 'type'], `a subschema in "${path[0]}" allows ${types.filter((t) => !fits(t)).join(', ')}, which "type: ${own.join(', ')}" beside it never does: dropped from it (the values allowed are the same)`);
  };
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(out[key])) (out[key] as unknown[]).forEach((b, i) => narrow(b, [key, i]));
  for (const key of ['not', 'if', 'then', 'else'] as const) narrow(out[key], [key]);
}

/** Every branch states its types (no `$ref`, no untyped branch): the union of them, else undefined. */
export function branchTypes(out: Obj): string[] | undefined {
  const lists = ['anyOf', 'oneOf'].filter((k) => Array.isArray(out[k])).map((k) => out[k] as unknown[]);
  if (lists.length !== 1) return undefined;
  const types = new Set<string>();
  for (const b of lists[0]!) {
    if (!isTyped(b)) return undefined;
    for (const t of typesOf(b)) types.add(t);
  }
  return [...types];
}

function isTyped(b: unknown): b is Obj {
  return typeof b === 'object' && b !== null && !Array.isArray(b) && (typeof (b as Obj).type === 'string' || Array.isArray((b as Obj).type));
}

function typesOf(b: Obj): string[] {
  return (Array.isArray(b.type) ? b.type : [b.type]).filter((t): t is string => typeof t === 'string');
}

/**
 * A pattern JavaScript reads without the `u` flag but ajv (which sets it) refuses, because of an identity
 * escape of a character that is not a syntax character (`\-` outside a class, `\_`, `\:`, …, data2crm.com):
 * the escape is dropped, which means the same. Otherwise the pattern is dropped.
 */
export function repairPattern(out: Obj, at: Pointer | undefined, sink: SchemaSink | undefined): void {
  if (out.pattern !== undefined && typeof out.pattern !== 'string') {
    // api.video's `pattern: 0`: no regular expression at all.
    note(sink, at && [...at, 'pattern'], `pattern ${JSON.stringify(out.pattern).slice(0, 60)} is not a string: dropped`);
    delete out.pattern;
    return;
  }
  if (typeof out.pattern !== 'string' || compiles(out.pattern)) return;
  const fixed = withoutIdentityEscapes(out.pattern);
  const where = at && [...at, 'pattern'];
  if (fixed !== undefined && compiles(fixed)) {
    note(sink, where, `pattern ${preview(out.pattern)} is not valid with the "u" flag JSON Schema validators set: escapes of characters that need none were removed (same meaning)`);
    out.pattern = fixed;
    return;
  }
  note(sink, where, `pattern ${preview(out.pattern)} is not a valid JSON Schema (ECMA-262, "u" flag) pattern: dropped`);
  delete out.pattern;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u').test('');
    return true;
  } catch {
    return false;
  }
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/** `\X` where X is punctuation with no meaning escaped (outside a class; in one, `\-` is kept): `X`. */
function withoutIdentityEscapes(pattern: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      const identity = !/[A-Za-z0-9]/.test(next) && !SYNTAX.has(next) && !(inClass && next === '-');
      out += identity ? next : c + next;
      i++;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

function preview(v: string): string {
  return v.length > 60 ? `${JSON.stringify(v.slice(0, 60))}…` : JSON.stringify(v);
}
