// Input defaults: which `default:` values of a tool's input schema are filled in before its handler
// runs. The generator types the handler's input from the same plan (defaulted properties present), so
// what the types promise and what the server does cannot drift apart. Ajv-free: the generator imports
// it by its own subpath.
//
// The rule, kept small so it is predictable: a property's default is its own `default`, or else the
// `default` of the `#/$defs/Name` entry its `$ref` names (as `units: { $ref: '#/$defs/Units' }`); it
// applies to properties of the root and of objects nested in it through `properties` alone, when the
// enclosing object is present. Defaults under `items`, combinators or inside `$defs` objects are left
// to the handler (one named type serves inputs and outputs alike).

type Json = Readonly<Record<string, unknown>>;

/** What to fill in for one object: own defaults, and plans for nested objects present in the value. */
export interface DefaultsPlan {
  readonly values: ReadonlyMap<string, unknown>;
  readonly nested: ReadonlyMap<string, DefaultsPlan>;
}

const MAX_DEPTH = 32;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The plan of an input schema (undefined: nothing to fill in). `root` is what `#` means (the schema). */
export function defaultsPlan(schema: unknown, root: unknown = schema, depth = 0): DefaultsPlan | undefined {
  if (!isObject(schema) || !isObject(schema.properties) || depth > MAX_DEPTH) return undefined;
  const values = new Map<string, unknown>();
  const nested = new Map<string, DefaultsPlan>();
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = propertyDefault(prop, root);
    if (value !== undefined) values.set(name, value.default);
    const inner = defaultsPlan(prop, root, depth + 1);
    if (inner !== undefined) nested.set(name, inner);
  }
  return values.size === 0 && nested.size === 0 ? undefined : { values, nested };
}

/** The default a property gets: its own, else that of the `$defs` entry its `$ref` names (followed a few hops). */
export function propertyDefault(prop: unknown, root: unknown): { readonly default: unknown } | undefined {
  let cur = prop;
  for (let hops = 0; hops < 8 && isObject(cur); hops++) {
    if (Object.hasOwn(cur, 'default')) return { default: cur.default };
    const ref = cur.$ref;
    const m = typeof ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(ref) : null;
    if (m === null || !isObject(root) || !isObject(root.$defs)) return undefined;
    const name = m[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Object.hasOwn(root.$defs, name)) return undefined;
    cur = root.$defs[name];
  }
  return undefined;
}

/**
 * The input with the plan's defaults filled in where a property is absent: a copy of each object it
 * changes (the caller's value, which binds MRTR state, stays as the client sent it). Each default is a
 * fresh copy, so a handler that changes one changes no other call's.
 */
export function applyDefaults(value: unknown, plan: DefaultsPlan | undefined): unknown {
  if (plan === undefined || !isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, fallback] of plan.values) {
    if (!Object.hasOwn(value, key)) setOwn((out ??= { ...value }), key, structuredClone(fallback));
  }
  for (const [key, inner] of plan.nested) {
    const current = (out ?? value)[key];
    if (!Object.hasOwn(out ?? value, key) || !isObject(current)) continue;
    const filled = applyDefaults(current, inner);
    if (filled !== current) setOwn((out ??= { ...value }), key, filled);
  }
  return out ?? value;
}

/** A data property even for the key `__proto__` (an assignment would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
