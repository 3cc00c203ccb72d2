import { absoluteUriProblem } from '@mcpgen/runtime/shared/uri-template';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import { describedItems, type Located, type SpecView } from '../view.js';

/**
 * The spec values the 2026-07-28 schema declares `format: uri` (resource URIs have their own rule,
 * MCPG024): clients that validate server/discover or tools/list against the schema reject the rest.
 */
export function checkUriFields(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (item: Located<unknown>, value: unknown, segments: (string | number)[], what: string) => {
    if (typeof value !== 'string') return;
    const problem = absoluteUriProblem(value);
    if (problem !== undefined) out.push(report(item, 'MCPG051', `${what} ${preview(value)} is not an absolute URI (format: uri): ${problem}`, segments));
  };
  const server = view.spec.server;
  const serverItem: Located<unknown> = { value: server, source: view.root, path: ['server'] };
  if (server !== undefined) check(serverItem, server.websiteUrl, ['websiteUrl'], 'server.websiteUrl');
  for (const tool of view.tools) {
    for (const [key, e] of Object.entries(tool.value.elicit ?? {})) {
      if (e.mode === 'url') check(tool, e.url, ['elicit', key, 'url'], `url of elicitation "${key}"`);
    }
  }
  for (const h of describedItems(view)) (h.value.icons ?? []).forEach((icon, i) => check(h, icon.src, ['icons', i, 'src'], 'icon src'));
  return out;
}

/** Icon sources that are not URIs at all get MCPG051, not also the https:/data: warning. */
export function isAbsoluteUri(value: string): boolean {
  return absoluteUriProblem(value) === undefined;
}

function preview(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}
