import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import { isAbsoluteUri } from './uris.js';
import type { RawIcon } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';

/** Clients must reject unsafe icon schemes; catching them at build time saves a broken icon in every host. */
export function checkIcons(view: SpecView): Diagnostic[] {
  const holders: Located<{ readonly icons?: readonly RawIcon[] }>[] = [
    ...(view.spec.server ? [{ value: view.spec.server, source: view.root, path: ['server'] }] : []),
    ...view.tools,
    ...view.resources,
    ...view.resourceTemplates,
    ...view.prompts,
  ];
  const out: Diagnostic[] = [];
  for (const h of holders) {
    (h.value.icons ?? []).forEach((icon, i) => {
      if (isAbsoluteUri(icon.src) && !/^(https:|data:)/i.test(icon.src)) {
        out.push(report(h, 'MCPG028', `icon src ${JSON.stringify(icon.src.slice(0, 80))} should be an https: URL or a data: URI; clients reject other schemes`, ['icons', i, 'src']));
      }
    });
  }
  return out;
}
