// The spec's `$defs` from the document's schema components, under names the spec format allows
// (^[A-Za-z_][A-Za-z0-9_]*$). A `$ref` elsewhere in the bundled document (the parser's bundle points
// second uses of an external schema at its first place) is hoisted into `$defs` under a name of its own,
// so cycles stay `$ref`s and no schema is copied twice.
import { pascalCase, stemNames, typeName } from '../../common/names.js';
import { convertSchema, isObj } from './schema.js';
import type { SchemaSink } from './schema-repair.js';

export class SpecDefs {
  readonly defs: Record<string, unknown> = {};
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(
    private readonly get: (ref: string) => unknown,
    components: Readonly<Record<string, unknown>>,
    prefix: string,
    private readonly sink?: SchemaSink,
  ) {
    // Names first, then bodies: a component may refer to one declared after it.
    const keys = Object.keys(components).sort();
    for (const key of keys) this.names.set(`${prefix}${escape(key)}`, this.freshName(key));
    for (const key of keys) this.defs[this.names.get(`${prefix}${escape(key)}`)!] = convertSchema(components[key], this.ref, pointerOf(`${prefix}${escape(key)}`), sink);
  }

  /** The spec `$ref` for a `$ref` of the document. */
  readonly ref = (ref: string): string => {
    const known = this.names.get(ref);
    if (known !== undefined) return `#/$defs/${known}`;
    if (!ref.startsWith('#/')) return ref; // bundle() leaves none; check would report one (MCPG023)
    const name = this.freshName(unescape(ref.split('/').pop() ?? 'Schema'));
    this.names.set(ref, name);
    let target: unknown;
    try {
      target = this.get(ref);
    } catch {
      target = {};
    }
    this.defs[name] = convertSchema(isObj(target) || typeof target === 'boolean' ? target : {}, this.ref, pointerOf(ref), this.sink);
    return `#/$defs/${name}`;
  };

  private freshName(raw: string): string {
    let base = raw.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    let name = base;
    // Names that differ only in case or underscores would give one TypeScript type name (MCPG012).
    for (let i = 2; this.used.has(pascalCase(name)); i++) name = `${base}_${i}`;
    this.used.add(pascalCase(name));
    return name;
  }
}

/** `#/components/schemas/a~1b` → ['components', 'schemas', 'a/b']. */
function pointerOf(ref: string): string[] {
  return ref.slice(2).split('/').map(unescape);
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescape(seg: string): string {
  return decodeURIComponent(seg).replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * `$defs` whose TypeScript type is one the generated code already declares for a tool (`<Tool>Input`,
 * `…Arguments`, `…Output`) or for the server (`<Server>Handlers`, …): renamed `<name>Schema` (then
 * `_2`, …), every `$ref` to them with them. Most AWS descriptions name an operation's input component
 * `CreateIdentityPoolInput` beside the operation `CreateIdentityPool` (check: MCPG012).
 */
export function renameClashingDefs(defs: Record<string, unknown>, tools: readonly Record<string, unknown>[], serverName: string): void {
  const reserved = new Set([...Object.values(stemNames(pascalCase(serverName))), ...tools.flatMap((t) => ['Input', 'Arguments', 'Output'].map((s) => typeName(String(t.name), s)))]);
  const taken = new Set([...reserved, ...Object.keys(defs).map((n) => pascalCase(n))]);
  const renamed = new Map<string, string>();
  for (const name of Object.keys(defs)) {
    if (!reserved.has(pascalCase(name))) continue;
    let fresh = `${name}Schema`;
    for (let i = 2; taken.has(pascalCase(fresh)); i++) fresh = `${name}Schema_${i}`;
    taken.add(pascalCase(fresh));
    renamed.set(`#/$defs/${name}`, `#/$defs/${fresh}`);
  }
  if (renamed.size === 0) return;
  const entries = Object.entries(defs).map(([name, schema]) => [renamed.get(`#/$defs/${name}`)?.slice(8) ?? name, schema] as const);
  for (const name of Object.keys(defs)) delete defs[name];
  for (const [name, schema] of entries) defs[name] = schema;
  const rewrite = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(rewrite);
    if (!isObj(v)) return;
    if (typeof v.$ref === 'string' && renamed.has(v.$ref)) v.$ref = renamed.get(v.$ref);
    Object.values(v).forEach(rewrite);
  };
  rewrite(Object.values(defs));
  rewrite(tools.flatMap((t) => [t.input, t.output]));
}
