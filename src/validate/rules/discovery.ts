import { DISCOVERY_TOOL_NAMES } from '@mcpgen/runtime/shared/discovery';
import { toolMethodName } from '../../common/names.js';
import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import type { SpecView } from '../view.js';

/**
 * `discovery:` (docs/toolsets.md#dynamic-discovery): it enables toolsets, so it needs some; its initial
 * toolsets must exist; and the runtime adds list_toolsets / enable_toolset / disable_toolset, so no spec
 * tool may take one of those names (one of the two would be unreachable).
 */
export function checkDiscovery(view: SpecView): Diagnostic[] {
  const discovery = view.spec.discovery;
  if (discovery === undefined) return [];
  const sets = Object.keys(view.spec.toolsets ?? {});
  const out: Diagnostic[] = [];
  if (sets.length === 0) out.push(diagnosticAt(view.root, ['discovery'], 'MCPG163', '`discovery:` needs `toolsets:`: there is nothing for a caller to enable', 'key'));
  (discovery.initial ?? []).forEach((name, i) => {
    if (sets.includes(name)) return;
    const hint = didYouMean(name, sets);
    out.push(diagnosticAt(view.root, ['discovery', 'initial', i], 'MCPG164', `discovery.initial names toolset "${name}", which the spec does not declare${hint !== undefined ? `; did you mean "${hint}"?` : ''}`));
  });
  const methods = DISCOVERY_TOOL_NAMES.map(toolMethodName);
  for (const tool of view.tools) {
    const name = tool.value.name;
    if (!DISCOVERY_TOOL_NAMES.includes(name) && !methods.includes(toolMethodName(name))) continue;
    const message = `tool "${name}" has the name (or client method name) of a tool the server adds for \`discovery:\`; rename it`;
    out.push(diagnosticAt(tool.source, [...tool.path, 'name'], 'MCPG165', message));
  }
  const initial = discovery.initial ?? Object.entries(view.spec.toolsets ?? {}).filter(([, t]) => t.default === true).map(([n]) => n);
  if (sets.length > 0 && sets.every((n) => initial.includes(n))) out.push(diagnosticAt(view.root, ['discovery'], 'MCPG166', 'every toolset is initial: discovery has nothing left for a caller to enable', 'key'));
  return out;
}
