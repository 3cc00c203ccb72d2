import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import type { SpecView } from '../view.js';

/** A capability switched off while the spec declares that primitive is a contradiction, not a default. */
export function checkCapabilities(view: SpecView): Diagnostic[] {
  const caps = view.spec.capabilities;
  if (caps === undefined) return [];
  const out: Diagnostic[] = [];
  const off = (key: 'tools' | 'resources' | 'prompts', count: number, what: string) => {
    if (caps[key] === false && count > 0) {
      out.push(diagnosticAt(view.root, ['capabilities', key], 'MCPG030', `capabilities.${key} is false, but the spec declares ${count} ${what}; remove them or the flag`));
    }
  };
  off('tools', view.tools.length, 'tool(s)');
  off('resources', view.resources.length + view.resourceTemplates.length, 'resource(s) or template(s)');
  off('prompts', view.prompts.length, 'prompt(s)');
  return out;
}
