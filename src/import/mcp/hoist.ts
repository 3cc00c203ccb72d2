import { pascalCase } from '../../common/names.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// Below this size a shared sub-schema ({type: string}) reads better inline than behind a $ref.
const MIN_CHARS = 60;

interface Site {
  readonly parent: Json;
  readonly key: string;
  readonly hint: string;
}

/**
 * Moves sub-schemas that occur more than once (compared as JSON) under properties/items of tool inputs
 * and outputs into the spec's $defs, largest first. Changes the wire (tools/list sends $ref + $defs), so
 * it is opt-in. Schemas that hold $ref, $id or $anchor stay put: their meaning depends on where they sit.
 */
export function hoistDefs(spec: Json): string[] {
  const tools = Array.isArray(spec.tools) ? (spec.tools as Json[]) : [];
  const defs: Json = isObject(spec.$defs) ? spec.$defs : {};
  const hoisted: string[] = [];
  for (;;) {
    const groups = collect(tools);
    const best = [...groups.entries()].filter(([, sites]) => sites.length > 1).sort(([a], [b]) => b.length - a.length || (a < b ? -1 : 1))[0];
    if (best === undefined) break;
    const [json, sites] = best;
    const name = freeName(defs, sites[0]!.hint);
    defs[name] = JSON.parse(json) as unknown;
    for (const site of sites) site.parent[site.key] = { $ref: `#/$defs/${name}` };
    hoisted.push(name);
  }
  if (hoisted.length > 0) spec.$defs = defs;
  return hoisted;
}

function collect(tools: readonly Json[]): Map<string, Site[]> {
  const groups = new Map<string, Site[]>();
  for (const tool of tools) {
    for (const root of [tool.input, tool.output]) {
      // Only 2020-12 roots: a draft-07 sub-schema moved under the spec's 2020-12 $defs would change dialect.
      if (!isObject(root) || (typeof root.$schema === 'string' && !root.$schema.includes('2020-12'))) continue;
      visit(root, groups);
    }
  }
  return groups;
}

function visit(node: Json, groups: Map<string, Site[]>): void {
  const props = node.properties;
  if (isObject(props)) for (const [name, sub] of Object.entries(props)) consider(props, name, name, sub, groups);
  if (isObject(node.items)) consider(node, 'items', 'item', node.items, groups);
}

function consider(parent: Json, key: string, hint: string, sub: unknown, groups: Map<string, Site[]>): void {
  if (!isObject(sub)) return;
  const json = JSON.stringify(sub);
  if (json.length >= MIN_CHARS && !/"\$(ref|id|anchor|dynamicRef|dynamicAnchor)"/.test(json)) {
    const sites = groups.get(json) ?? [];
    sites.push({ parent, key, hint: typeof sub.title === 'string' ? sub.title : hint });
    groups.set(json, sites);
  }
  // Its parts count too: a part repeated inside one large schema that occurs once is still shared.
  visit(sub, groups);
}

function freeName(defs: Json, hint: string): string {
  const base = pascalCase(hint).replace(/[^A-Za-z0-9_]/g, '') || 'Schema';
  const stem = /^[A-Za-z_]/.test(base) ? base : `S${base}`;
  let name = stem;
  for (let i = 2; name in defs; i++) name = `${stem}${i}`;
  return name;
}
