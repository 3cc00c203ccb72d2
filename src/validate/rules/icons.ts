import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import { isAbsoluteUri } from './uris.js';
import { describedItems, type SpecView } from '../view.js';

/** Clients must reject unsafe icon schemes; catching them at build time saves a broken icon in every host. */
export function checkIcons(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const h of describedItems(view)) {
    (h.value.icons ?? []).forEach((icon, i) => {
      if (isAbsoluteUri(icon.src) && !/^(https:|data:)/i.test(icon.src)) {
        out.push(report(h, 'MCPG028', `icon src ${JSON.stringify(icon.src.slice(0, 80))} should be an https: URL or a data: URI; clients reject other schemes`, ['icons', i, 'src']));
      }
    });
  }
  return out;
}
