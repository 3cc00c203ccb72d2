import { elicitContentType, pascalCase, promptMethodName, resourceMethodName, RUNTIME_IMPORTS, stemNames, toolMethodName, typeName } from '../../common/names.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { duplicates, report, where } from '../report.js';
import type { Located, SpecView } from '../view.js';
import { lastSegment } from '../view.js';

/** The 2026-07-28 tool-name rule (a SHOULD in the spec; mcpgen makes it an error, as the SDK's validator warns). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function checkNames(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of view.tools) {
    const name = tool.value.name;
    if (!TOOL_NAME.test(name)) {
      const bad = [...name].find((c) => !/[A-Za-z0-9_.-]/.test(c));
      const why = name.length === 0 ? 'it is empty' : name.length > 128 ? `it has ${name.length} characters (at most 128)` : `${JSON.stringify(bad)} is not allowed`;
      out.push(report(tool, 'MCPG010', `tool name ${JSON.stringify(name)} is invalid: ${why}; use A-Z a-z 0-9 _ - . (1 to 128 characters)`, ['name']));
    }
  }
  out.push(
    ...duplicates(view.tools, (t) => t.name, (k, f) => `duplicate tool name ${JSON.stringify(k)} (first declared at ${where(f, ['name'])})`, 'MCPG011', ['name']),
    ...duplicates(view.prompts, (p) => p.name, (k, f) => `duplicate prompt name ${JSON.stringify(k)} (first declared at ${where(f, ['name'])})`, 'MCPG011', ['name']),
    ...duplicates(view.resources, (r) => r.uri, (k, f) => `duplicate resource URI ${JSON.stringify(k)} (first declared at ${where(f, ['uri'])})`, 'MCPG011', ['uri']),
    ...duplicates(view.resourceTemplates, (r) => r.uriTemplate, (k, f) => `duplicate resource template ${JSON.stringify(k)} (first declared at ${where(f, ['uriTemplate'])})`, 'MCPG011', ['uriTemplate']),
    ...checkIdentifiers(view),
  );
  return out;
}

/** `$defs` names defined twice are MCPG031's to report. */
function uniqDefs(view: SpecView): readonly Located<unknown>[] {
  const seen = new Set<string>();
  return view.defs.filter((d) => !seen.has(lastSegment(d)) && seen.add(lastSegment(d)) !== undefined);
}

interface Named {
  readonly item: Located<unknown>;
  readonly segment: string;
  readonly label: string;
}

/**
 * Spec names that would become the same handler/client method or the same exported name. Types and the
 * server-derived exports share one table: index.ts re-exports types.ts, server.ts and client.ts together.
 */
function checkIdentifiers(view: SpecView): Diagnostic[] {
  const methods = new Map<string, Named>();
  const types = new Map<string, Named>();
  const out: Diagnostic[] = [];
  const server = view.spec.server;
  if (server !== undefined && typeof server.name === 'string') {
    const item = { value: server, source: view.root, path: ['server'] };
    const named = { item, segment: 'name', label: `server ${JSON.stringify(server.name)}` };
    const ids = Object.values(stemNames(pascalCase(server.name)));
    // The generated files import these from mcpgen's runtime; declaring one would clash with the import.
    const taken = ids.filter((id) => RUNTIME_IMPORTS.has(id));
    if (taken.length > 0) out.push(report(item, 'MCPG012', `${named.label} becomes the TypeScript name${taken.length > 1 ? 's' : ''} ${taken.map((id) => `"${id}"`).join(' and ')}, which the generated code imports from mcpgen's runtime; rename the server`, ['name']));
    for (const id of ids) types.set(id, named);
  }
  const reported = new Set<string>();
  const claim = (table: Map<string, Named>, id: string, named: Named, kind: string) => {
    const prior = table.get(id);
    if (prior === undefined) table.set(id, named);
    else if (prior.item !== named.item || prior.segment !== named.segment) {
      // One report per colliding pair, even when its method and its types all collide.
      const pair = `${prior.label}|${where(prior.item, [prior.segment])}|${named.label}|${where(named.item, [named.segment])}`;
      if (reported.has(pair)) return;
      reported.add(pair);
      out.push(report(named.item, 'MCPG012', `${named.label} and ${prior.label} (${where(prior.item, [prior.segment])}) both become the TypeScript ${kind} "${id}"; rename one`, [named.segment]));
    }
  };
  // Tool names already failing MCPG011 would also collide here; report them once.
  const uniq = <T>(items: readonly Located<T>[], key: (v: T) => string) => {
    const seen = new Set<string>();
    return items.filter((i) => !seen.has(key(i.value)) && seen.add(key(i.value)) !== undefined);
  };
  for (const t of uniq(view.tools, (v) => v.name)) {
    const named = { item: t, segment: 'name', label: `tool ${JSON.stringify(t.value.name)}` };
    claim(methods, toolMethodName(t.value.name), named, 'method');
    claim(types, typeName(t.value.name, 'Input'), named, 'type');
    claim(types, typeName(t.value.name, 'Arguments'), named, 'type');
    claim(types, typeName(t.value.name, 'Output'), named, 'type');
    for (const [key, e] of Object.entries(t.value.elicit ?? {})) {
      if ((e.mode ?? 'form') !== 'form') continue;
      const label = `elicitation ${JSON.stringify(key)} of tool ${JSON.stringify(t.value.name)}`;
      claim(types, elicitContentType(t.value.name, key), { item: { ...t, path: [...t.path, 'elicit'] }, segment: key, label }, 'type');
    }
  }
  for (const p of uniq(view.prompts, (v) => v.name)) {
    const named = { item: p, segment: 'name', label: `prompt ${JSON.stringify(p.value.name)}` };
    claim(methods, promptMethodName(p.value.name), named, 'method');
    claim(types, typeName(p.value.name, 'PromptArgs'), named, 'type');
  }
  for (const r of uniq(view.resources, (v) => v.uri)) {
    claim(methods, resourceMethodName(r.value.name), { item: r, segment: 'name', label: `resource ${JSON.stringify(r.value.name)}` }, 'method');
  }
  for (const r of uniq(view.resourceTemplates, (v) => v.uriTemplate)) {
    const named = { item: r, segment: 'name', label: `resource template ${JSON.stringify(r.value.name)}` };
    claim(methods, resourceMethodName(r.value.name), named, 'method');
    claim(types, typeName(r.value.name, 'Variables'), named, 'type');
  }
  for (const d of uniqDefs(view)) {
    claim(types, typeName(lastSegment(d)), { item: { ...d, path: d.path.slice(0, -1) }, segment: lastSegment(d), label: `$defs ${JSON.stringify(lastSegment(d))}` }, 'type');
  }
  return out;
}
