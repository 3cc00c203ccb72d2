import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { reservedPrefix } from '../../common/meta-keys.js';
import { didYouMean, editDistance } from '../../common/suggest.js';
import { report } from '../report.js';
import { renameFix, withFix } from '../teach.js';
import { describedItems, type SpecView } from '../view.js';

/** The hints MCP's ToolAnnotations defines; hosts read no other key. */
const KNOWN_HINTS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/**
 * Extra `annotations` keys (published servers send `category`, `conditions`…) are carried to the wire:
 * refusing them made such a server impossible to re-express. A warning still says no host reads them,
 * and a near miss of a hint (`readonlyHint`) gets its did-you-mean, since that typo silently loses the hint.
 */
export function checkAnnotations(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of view.tools) {
    const annotations = tool.value.annotations;
    if (annotations === undefined || typeof annotations !== 'object') continue;
    for (const key of Object.keys(annotations)) {
      if (KNOWN_HINTS.includes(key)) continue;
      // `destructive` for `destructiveHint`: the hint's name without its suffix is the commonest miss.
      const near = KNOWN_HINTS.find((h) => h.toLowerCase() === `${key.toLowerCase()}hint`) ?? didYouMean(key, KNOWN_HINTS);
      const close = near !== undefined && (near.toLowerCase() === `${key.toLowerCase()}hint` || editDistance(key.toLowerCase(), near.toLowerCase()) <= 2);
      const hint = close ? `; did you mean "${near}"?` : '';
      const d = report(tool, 'MCPG112', `annotation "${key}" of tool ${JSON.stringify(tool.value.name)} is not an MCP tool hint: it is sent as written, but hosts do not read it${hint}`, ['annotations', key], 'key');
      out.push(close ? withFix(d, renameFix(tool.source, [...tool.path, 'annotations', key], near)) : d);
    }
  }
  return out;
}

/** A spec may not write `_meta` keys under a prefix MCP reserves (common/meta-keys.ts); the server's included. */
export function checkMeta(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const h of describedItems(view)) {
    const meta = h.value._meta;
    if (meta === undefined || typeof meta !== 'object') continue;
    for (const key of Object.keys(meta)) {
      if (reservedPrefix(key)) out.push(report(h, 'MCPG113', `_meta key "${key}" is under a prefix MCP reserves for itself (second label "modelcontextprotocol" or "mcp"); use a prefix of your own, such as com.example/`, ['_meta', key], 'key'));
    }
  }
  return out;
}
