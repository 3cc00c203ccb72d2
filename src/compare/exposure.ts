// What deployments expose (docs/toolsets.md; runtime core/exposure.ts decides the same at run time):
// toolsets removed, renamed or added, and members that a deployment exposed before and hides now — moved
// to a non-default toolset, put into a toolset for the first time, or (read-only mode) no longer readOnlyHint.
import type { ServerModel, ToolsetModel } from '../model/ir.js';
import type { Findings } from './findings.js';
import { RULES } from './rules.js';
import { deepEqual } from './schema-values.js';
import type { ItemKind } from './types.js';

type MemberKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
const KINDS: readonly [MemberKind, ItemKind, string][] = [['tools', 'tool', 'tool'], ['resources', 'resource', 'resource'], ['resourceTemplates', 'resourceTemplate', 'resource template'], ['prompts', 'prompt', 'prompt']];

/** A deployment: the toolsets it chose (undefined: none, so the defaults). */
interface Deployment {
  readonly label: string;
  readonly chosen: readonly string[] | undefined;
}

function keysOf(model: ServerModel, kind: MemberKind): string[] {
  if (kind === 'tools') return model.tools.map((t) => t.name);
  if (kind === 'resources') return model.resources.map((r) => r.uri);
  if (kind === 'resourceTemplates') return model.resourceTemplates.map((t) => t.uriTemplate);
  return model.prompts.map((p) => p.name);
}

/** Is the member exposed by a deployment choosing `chosen`? Members of no toolset always are. */
function exposed(model: ServerModel, kind: MemberKind, key: string, chosen: readonly string[] | undefined): boolean {
  const sets = model.toolsets;
  if (!sets.some((s) => s[kind].includes(key))) return true;
  // With discovery, choosing none offers every toolset (each caller may enable it).
  const names = chosen ?? (model.discovery !== undefined ? sets.map((s) => s.name) : sets.filter((s) => s.default).map((s) => s.name));
  return sets.some((s) => names.includes(s.name) && s[kind].includes(key));
}

const members = (t: ToolsetModel) => [t.tools, t.resources, t.resourceTemplates, t.prompts];

export function compareExposure(f: Findings): void {
  const a = f.oldSide.model;
  const b = f.newSide.model;
  const at = (name: string) => ['toolsets', name];
  const gone = a.toolsets.filter((t) => !b.toolsets.some((x) => x.name === t.name));
  const fresh = b.toolsets.filter((t) => !a.toolsets.some((x) => x.name === t.name));
  for (const t of gone) {
    const same = fresh.find((x) => deepEqual(members(x), members(t)));
    if (same !== undefined) f.add(RULES.TOOLSET_RENAMED, `toolset "${t.name}" was renamed to "${same.name}": deployments started with --toolsets ${t.name} no longer start`, undefined, at(t.name), at(same.name), [t.name, same.name]);
    else f.add(RULES.TOOLSET_REMOVED, `toolset "${t.name}" was removed: deployments started with --toolsets ${t.name} no longer start`, undefined, at(t.name), undefined, [t.name]);
  }
  for (const t of fresh) if (!gone.some((x) => deepEqual(members(x), members(t)))) f.add(RULES.TOOLSET_ADDED, `toolset "${t.name}" was added`, undefined, undefined, at(t.name), [t.name]);
  const deployments: Deployment[] = [
    { label: 'default deployments (no --toolsets)', chosen: undefined },
    ...a.toolsets.filter((t) => b.toolsets.some((x) => x.name === t.name)).map((t) => ({ label: `--toolsets ${t.name}`, chosen: [t.name] })),
  ];
  for (const [kind, itemKind, noun] of KINDS) {
    const newKeys = new Set(keysOf(b, kind));
    for (const key of keysOf(a, kind)) {
      if (!newKeys.has(key)) continue; // removed or renamed: reported as such
      const lost = deployments.filter((d) => exposed(a, kind, key, d.chosen) && !exposed(b, kind, key, d.chosen));
      if (lost.length > 0) f.add(RULES.TOOLSET_MEMBER_HIDDEN, `${noun} "${key}" is no longer exposed by ${lost.map((d) => d.label).join(', ')}`, { kind: itemKind, oldKey: key, newKey: key }, [], []);
    }
  }
  const newTools = new Map(b.tools.map((x) => [x.name, x]));
  for (const t of a.tools) {
    const n = newTools.get(t.name);
    if (n !== undefined && t.annotations?.readOnlyHint === true && n.annotations?.readOnlyHint !== true) {
      f.add(RULES.READ_ONLY_TOOL_HIDDEN, `${t.label}: no longer readOnlyHint, so read-only deployments (--read-only) stop exposing it`, { kind: 'tool', oldKey: t.name, newKey: n.name }, ['annotations', 'readOnlyHint'], ['annotations']);
    }
  }
}
