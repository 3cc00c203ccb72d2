import { resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { LoadedSpec } from '../load/spec-files.js';
import type { SourceFile } from '../parse/source.js';

/** A stretch of a spec file that names something: a tool, a `$defs` entry, an included file. */
export interface Mention {
  readonly file: string;
  readonly source: SourceFile;
  readonly start: number;
  readonly end: number;
}

/** Where each tool and `$defs` entry of one spec is declared, and every place that names it. */
export interface SpecIndex {
  readonly tools: Map<string, { decl: Mention; path: readonly (string | number)[] }>;
  readonly defs: Map<string, Mention>;
  /** By name: `$ref: '#/$defs/Name'` (the Name part), `overrides.$defs.Name`. */
  readonly defUses: Map<string, Mention[]>;
  /** By name: `overrides.tools.name`, `toolsets.*.tools` entries. */
  readonly toolUses: Map<string, Mention[]>;
  readonly includes: { readonly mention: Mention; readonly targets: readonly string[] }[];
}

const REF = '#/$defs/';

export function indexSpec(spec: LoadedSpec, cwd: string): SpecIndex {
  const index: SpecIndex = { tools: new Map(), defs: new Map(), defUses: new Map(), toolUses: new Map(), includes: [] };
  const add = (map: Map<string, Mention[]>, name: string, m: Mention): void => void map.set(name, [...(map.get(name) ?? []), m]);
  for (const source of [spec.root, ...spec.includes]) {
    const file = resolve(cwd, source.file);
    const at = (node: unknown, from = 0, to?: number): Mention | undefined => {
      const r = (node as Node | undefined)?.range;
      return r ? { file, source, start: r[0] + from, end: to === undefined ? r[1] : r[0] + to } : undefined;
    };
    const top = source.doc.contents;
    if (!isMap(top)) continue;
    for (const pair of top.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      if (key === 'tools' && isSeq(pair.value)) {
        pair.value.items.forEach((tool, i) => {
          const name = isMap(tool) ? tool.items.find((p) => isScalar(p.key) && p.key.value === 'name')?.value : undefined;
          const m = at(name);
          if (isScalar(name) && m !== undefined && !index.tools.has(String(name.value))) index.tools.set(String(name.value), { decl: m, path: ['tools', i] });
        });
      }
      if (key === '$defs' && isMap(pair.value)) for (const d of pair.value.items) if (isScalar(d.key)) index.defs.set(String(d.key.value), at(d.key)!);
      if (key === 'overrides' && isMap(pair.value)) {
        for (const group of pair.value.items) {
          if (!isScalar(group.key) || !isMap(group.value)) continue;
          const map = group.key.value === 'tools' ? index.toolUses : group.key.value === '$defs' ? index.defUses : undefined;
          if (map !== undefined) for (const e of group.value.items) if (isScalar(e.key)) add(map, String(e.key.value), at(e.key)!);
        }
      }
      if (key === 'toolsets' && isMap(pair.value)) {
        for (const set of pair.value.items) {
          const tools = isMap(set.value) ? set.value.items.find((p) => isScalar(p.key) && p.key.value === 'tools')?.value : undefined;
          if (isSeq(tools)) for (const t of tools.items) if (isScalar(t)) add(index.toolUses, String(t.value), at(t)!);
        }
      }
      if (key === 'include' && isSeq(pair.value) && source === spec.root) {
        for (const inc of pair.value.items) {
          if (!isScalar(inc) || typeof inc.value !== 'string') continue;
          const targets = spec.includes.map((s) => resolve(cwd, s.file)).filter((f) => f === resolve(resolve(cwd, spec.root.file), '..', String(inc.value)));
          index.includes.push({ mention: at(inc)!, targets });
        }
      }
    }
    // Every `$ref` to a spec $defs entry, wherever it stands.
    const walk = (node: unknown): void => {
      if (isMap(node)) {
        for (const p of node.items) {
          if (isScalar(p.key) && p.key.value === '$ref' && isScalar(p.value) && typeof p.value.value === 'string' && p.value.value.startsWith(REF) && p.value.range) {
            const raw = source.text.slice(p.value.range[0], p.value.range[1]);
            const name = p.value.value.slice(REF.length);
            const from = raw.indexOf(REF) + REF.length;
            if (raw.indexOf(REF) >= 0) add(index.defUses, name, at(p.value, from, from + name.length)!);
          } else walk(p.value);
        }
      } else if (isSeq(node)) node.items.forEach(walk);
    };
    walk(top);
  }
  return index;
}
