// What one deployment exposes of a definition: the chosen toolsets (docs/toolsets.md) and read-only mode.
// The result is itself a ServerDefinition, so lists, calls, server/discover, the HTTP header table and
// the fast path are all built from the same, already filtered data: a member left out is unknown
// everywhere (a call to it is refused as an unknown tool before any handler runs).
import { didYouMean } from '../../shared/suggest.js';
import type { ServerDefinition, ToolsetSpec } from './definition.js';
import { isDiscoveryTool, withDiscoveryTools } from './discovery.js';

export interface ExposureOptions {
  /**
   * Toolsets to expose, by name; `'all'` (or a list holding `all`) chooses every toolset. Absent: the
   * spec's default toolsets. Members of no toolset are always exposed.
   */
  readonly toolsets?: readonly string[] | 'all';
  /** Expose only tools annotated `readOnlyHint: true` (resources and prompts are read-only already). */
  readonly readOnly?: boolean;
}

/** Thrown for a toolset name the spec does not declare (entry points print it and exit 2). */
export class UnknownToolsetError extends Error {
  override readonly name = 'UnknownToolsetError';
}

type MemberKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** The definition this deployment serves; the same object when nothing is filtered. */
export function exposedDefinition(def: ServerDefinition, options: ExposureOptions = {}): ServerDefinition {
  const sets = def.toolsets ?? {};
  const names = Object.keys(sets);
  const chosen = exposedToolsets(def, options);
  if (chosen.length === names.length && options.readOnly !== true) return withDiscoveryTools(def, chosen);
  // Members of some toolset are hidden unless a chosen toolset lists them too.
  const grouped = memberSets(names.map((n) => sets[n]!));
  const exposed = memberSets(chosen.map((n) => sets[n]!));
  const keep = (kind: MemberKind, key: string) => !grouped[kind].has(key) || exposed[kind].has(key);
  // The discovery tools (already there when a filtered definition is filtered again) stay in read-only mode:
  // they change what the caller sees, never the data behind the tools.
  return withDiscoveryTools({
    ...def,
    tools: def.tools.filter((t) => isDiscoveryTool(t) || (keep('tools', t.definition.name) && (options.readOnly !== true || t.definition.annotations?.readOnlyHint === true))),
    resources: def.resources.filter((r) => keep('resources', r.definition.uri)),
    resourceTemplates: def.resourceTemplates.filter((t) => keep('resourceTemplates', t.definition.uriTemplate)),
    prompts: def.prompts.filter((p) => keep('prompts', p.definition.name)),
  }, chosen);
}

/** The toolsets a deployment exposes; with discovery, choosing none means all (each principal starts with the initial ones). */
export function exposedToolsets(def: ServerDefinition, options: ExposureOptions): string[] {
  return chosenToolsets(def.toolsets ?? {}, options.toolsets ?? (def.discovery !== undefined ? 'all' : undefined));
}

/** The names a deployment chose, checked against the spec; none chosen: the default ones. */
export function chosenToolsets(sets: Readonly<Record<string, ToolsetSpec>>, chosen: readonly string[] | 'all' | undefined): string[] {
  const names = Object.keys(sets);
  if (chosen === undefined) return names.filter((n) => sets[n]!.default);
  if (chosen === 'all' || chosen.includes('all')) return names;
  for (const name of chosen) {
    if (Object.hasOwn(sets, name)) continue;
    const hint = didYouMean(name, names);
    const known = names.length === 0 ? 'this server declares no toolsets' : `known: ${names.join(', ')}, all`;
    throw new UnknownToolsetError(`unknown toolset ${JSON.stringify(name)}${hint !== undefined ? ` (did you mean ${hint}?)` : ''}; ${known}`);
  }
  return names.filter((n) => chosen.includes(n));
}

function memberSets(sets: readonly ToolsetSpec[]): Record<MemberKind, Set<string>> {
  const of = (kind: MemberKind) => new Set(sets.flatMap((s) => s[kind] ?? []));
  return { tools: of('tools'), resources: of('resources'), resourceTemplates: of('resourceTemplates'), prompts: of('prompts') };
}
