import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import type { SpecView } from '../view.js';

type MemberKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
const KINDS: readonly MemberKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];
const WHAT: Record<MemberKind, string> = { tools: 'tool', resources: 'resource', resourceTemplates: 'resource template', prompts: 'prompt' };

/**
 * `toolsets:` members must name what the spec declares (tools and prompts by name, resources by URI,
 * templates by URI template): a typo would silently leave a tool out of every deployment that picks it.
 */
export function checkToolsets(view: SpecView): Diagnostic[] {
  const sets = view.spec.toolsets;
  if (sets === undefined) return [];
  const declared: Record<MemberKind, readonly string[]> = {
    tools: view.tools.map((t) => t.value.name),
    resources: view.resources.map((r) => r.value.uri),
    resourceTemplates: view.resourceTemplates.map((t) => t.value.uriTemplate),
    prompts: view.prompts.map((p) => p.value.name),
  };
  const out: Diagnostic[] = [];
  for (const [name, set] of Object.entries(sets)) {
    if (name === 'all') out.push(diagnosticAt(view.root, ['toolsets', name], 'MCPG161', 'toolset "all" is reserved: `--toolsets all` chooses every toolset; rename it', 'key'));
    if (KINDS.every((k) => (set[k] ?? []).length === 0)) out.push(diagnosticAt(view.root, ['toolsets', name], 'MCPG162', `toolset "${name}" has no members: choosing it exposes nothing more`, 'key'));
    for (const kind of KINDS) {
      (set[kind] ?? []).forEach((member, i) => {
        if (declared[kind].includes(member)) return;
        const hint = didYouMean(member, declared[kind]);
        const message = `toolset "${name}" lists ${WHAT[kind]} "${member}", which the spec does not declare${hint !== undefined ? `; did you mean "${hint}"?` : ''}`;
        out.push(diagnosticAt(view.root, ['toolsets', name, kind, i], 'MCPG160', message));
      });
    }
  }
  return out;
}
