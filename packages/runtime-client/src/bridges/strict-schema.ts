// OpenAI strict mode (`strict: true`, Structured Outputs rules) for MCP input schemas, and the way back.
// Strict mode wants every object closed (`additionalProperties: false`) with every property required, and
// refuses keywords outside its subset. The transform makes optional properties required-but-nullable (a
// model sends null for "not given") and drops the keywords strict mode refuses; fromStrictArguments turns
// those nulls back into absent properties, so the handler receives exactly what a non-strict call gives
// (defaults are then filled by the server as usual). What cannot be made strict is reported, not guessed.

import { OPENAI_STRICT_DROPPED, OPENAI_STRICT_FORMATS, openAiStrictLimitsExceeded } from '@mcpgen/runtime/shared/provider-rules';

type Schema = Readonly<Record<string, unknown>>;

/** Keywords OpenAI's strict mode refuses (shared with `mcpgen check --target openai-strict`); `oneOf` becomes `anyOf`. */
const DROPPED: readonly string[] = [...OPENAI_STRICT_DROPPED, 'x-mcp-header', 'oneOf'];

export interface StrictNote {
  /** JSON Pointer into the original schema. */
  readonly path: string;
  /** `dropped`: the model is no longer told (the server still checks); `nullable`: optional became required + null; `cannot`: no strict form. */
  readonly kind: 'dropped' | 'nullable' | 'closed' | 'cannot';
  readonly message: string;
}

export interface StrictSchema {
  readonly schema: Schema;
  readonly notes: readonly StrictNote[];
  /** False when some part has no strict form (then send the tool with `strict: false`). */
  readonly strict: boolean;
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The strict-mode form of a tool's input schema, with a note per change and per part that cannot be strict. */
export function toStrictSchema(input: Schema): StrictSchema {
  const notes: StrictNote[] = [];
  if (input.type !== 'object') notes.push({ path: '', kind: 'cannot', message: 'the root must be `type: object`' });
  const schema = walk(input, '', notes);
  // Over a published size limit OpenAI refuses the whole request (every tool in it): this tool goes non-strict.
  for (const m of openAiStrictLimitsExceeded(schema)) notes.push({ path: '', kind: 'cannot', message: `${m}: OpenAI refuses such a strict schema with the whole request` });
  return { schema, notes, strict: !notes.some((n) => n.kind === 'cannot') };
}

function walk(s: Schema, path: string, notes: StrictNote[]): Schema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (DROPPED.includes(key) || (key === 'format' && !OPENAI_STRICT_FORMATS.includes(String(value)))) {
      // oneOf → anyOf keeps the choice (strict mode has anyOf only); the server still checks "exactly one".
      if (key === 'oneOf' && Array.isArray(value)) out.anyOf = value.map((v, i) => (isObject(v) ? walk(v, `${path}/oneOf/${i}`, notes) : v));
      else if (key !== 'x-mcp-header') notes.push({ path: `${path}/${key}`, kind: 'dropped', message: `\`${key}\` is not in strict mode's subset: dropped from what the model sees (the server still checks it)` });
      continue;
    }
    if (key === 'properties' && isObject(value)) continue;
    if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = walk(value, `${path}/${key}`, notes);
    else if ((key === 'anyOf' || key === '$defs') && (Array.isArray(value) || isObject(value))) out[key] = mapChildren(value, `${path}/${key}`, notes);
    else out[key] = value;
  }
  if (s.type === 'object' || isObject(s.properties)) closeObject(s, out, path, notes);
  return out;
}

function mapChildren(value: readonly unknown[] | Schema, path: string, notes: StrictNote[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => (isObject(v) ? walk(v, `${path}/${i}`, notes) : v));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? walk(v, `${path}/${k}`, notes) : v]));
}

/** Every property required (optional ones nullable), no other keys. */
function closeObject(s: Schema, out: Record<string, unknown>, path: string, notes: StrictNote[]): void {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  if (s.additionalProperties !== undefined && s.additionalProperties !== false && Object.keys(props).length === 0) {
    notes.push({ path, kind: 'cannot', message: 'an object with open keys (a map) has no strict form: strict mode needs every key listed' });
    return;
  }
  if (s.additionalProperties !== false) notes.push({ path, kind: 'closed', message: 'closed with `additionalProperties: false`: the model can send only the listed properties' });
  const properties: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(props)) {
    const p = `${path}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const walked = isObject(sub) ? walk(sub, p, notes) : sub;
    if (required.has(name) || !isObject(walked)) properties[name] = walked;
    else {
      properties[name] = nullable(walked);
      // A null the property accepts cannot also mean "not given": the handler gets it as null (not lossless).
      const message = acceptsNull(walked) ? 'optional and already nullable: sent as required; a null reaches the handler as null, where a non-strict call could leave it out' : 'optional: sent as required and nullable; null is mapped back to "not given" before the handler';
      notes.push({ path: p, kind: 'nullable', message });
    }
  }
  out.properties = properties;
  out.required = Object.keys(props);
  out.additionalProperties = false;
}

function nullable(s: Schema): Schema {
  if (acceptsNull(s)) return s;
  if (typeof s.type === 'string' && s.enum === undefined && s.const === undefined) return { ...s, type: [s.type, 'null'] };
  if (Array.isArray(s.type) && s.enum === undefined && s.const === undefined) return { ...s, type: [...s.type, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

function acceptsNull(s: unknown): boolean {
  if (s === true) return true;
  if (!isObject(s)) return false;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || s.const === null) return s.enum === undefined || (s.enum as unknown[]).includes(null);
  if (Array.isArray(s.enum) && s.enum.includes(null) && s.type === undefined) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as unknown[]).some(acceptsNull));
}

/**
 * Arguments a model sent under the strict schema → the arguments of a non-strict call: a null for a
 * property that was optional and does not accept null means "not given" and is removed — in nested objects,
 * array items, local `$ref`s, `allOf` parts and the `anyOf`/`oneOf` branch the value is for (a strict value
 * carries every property of its branch, so the branch is the one whose properties hold every key sent and
 * whose `const`/`enum` properties match). Everything else is passed through untouched.
 */
export function fromStrictArguments(original: Schema, args: unknown): unknown {
  return back(original, args, original, 0);
}

function back(raw: Schema, value: unknown, root: Schema, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  const s = deref(raw, root);
  let out: unknown = value;
  if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isObject(part)) out = back(part, out, root, depth + 1);
  if (Array.isArray(out)) return isObject(s.items) ? out.map((v) => back(s.items as Schema, v, root, depth + 1)) : out;
  if (isObject(s.properties) && isObject(out)) out = backProperties(s, out, root, depth);
  const branches = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])].filter(isObject);
  const branch = branches.find((b) => fits(b, out as Schema, root, true)) ?? branches.find((b) => fits(b, out as Schema, root, false));
  return branch === undefined ? out : back(branch, out, root, depth + 1);
}

function backProperties(s: Schema, value: Schema, root: Schema, depth: number): Schema {
  const props = s.properties as Schema;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, k) ? props[k] : undefined;
    if (v === null && sub !== undefined && !required.has(k) && !acceptsNull(deref(isObject(sub) ? sub : {}, root))) continue;
    out[k] = isObject(sub) ? back(sub, v, root, depth + 1) : v;
  }
  return out;
}

/** `$ref` followed (its siblings kept over the target's keys). */
function deref(s: Schema, root: Schema): Schema {
  let node = s;
  for (let hops = 0; typeof node.$ref === 'string' && hops < 64; hops++) {
    const target = resolveLocal(root, node.$ref);
    const { $ref: _ref, ...rest } = node;
    node = target === undefined ? rest : { ...target, ...rest };
  }
  return node;
}

/** Whether an object value is for this branch: its properties hold every key sent (exact: and only those), its const/enum properties match. */
function fits(raw: Schema, value: unknown, root: Schema, exact: boolean): boolean {
  const b = deref(raw, root);
  if (Array.isArray(value)) return isObject(b.items);
  if (!isObject(value) || !isObject(b.properties)) return false;
  const props = b.properties;
  const keys = Object.keys(value);
  if (!keys.every((k) => Object.hasOwn(props, k))) return false;
  if (exact && Object.keys(props).some((k) => !Object.hasOwn(value, k))) return false;
  return keys.every((k) => {
    const p = isObject(props[k]) ? deref(props[k] as Schema, root) : {};
    const v = value[k];
    if (v === null && !(Array.isArray(b.required) && b.required.includes(k))) return true;
    if ('const' in p) return JSON.stringify(p.const) === JSON.stringify(v);
    return !Array.isArray(p.enum) || p.enum.some((e) => JSON.stringify(e) === JSON.stringify(v));
  });
}

function resolveLocal(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const seg of ref.slice(2).split('/')) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return isObject(node) ? node : undefined;
}
