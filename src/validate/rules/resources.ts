import { absoluteUriProblem, parseUriTemplate } from '@mcpgen/runtime/shared/uri-template';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import { templatedResourceHint, withFix } from '../teach.js';
import type { SpecView } from '../view.js';

export function checkResources(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of view.resources) {
    const problem = absoluteUriProblem(r.value.uri);
    if (problem === undefined) continue;
    const template = parseUriTemplate(r.value.uri);
    if (template.ok && template.variables.length > 0) {
      const message = `resource URI ${JSON.stringify(r.value.uri)} has a {variable}: it is a URI template; declare it under \`resourceTemplates:\` with \`uriTemplate:\``;
      out.push(withFix(report(r, 'MCPG024', message, ['uri']), templatedResourceHint(r.source, r.path)));
    } else out.push(report(r, 'MCPG024', `resource URI ${JSON.stringify(r.value.uri)} is not an absolute URI: ${problem}`, ['uri']));
  }
  for (const t of view.resourceTemplates) {
    const template = t.value.uriTemplate;
    const parsed = parseUriTemplate(template);
    if (!parsed.ok) {
      out.push(report(t, 'MCPG025', `resource template ${JSON.stringify(template)} is not valid RFC 6570 at character ${parsed.offset + 1}: ${parsed.reason}`, ['uriTemplate']));
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template)) {
      out.push(report(t, 'MCPG024', `resource template ${JSON.stringify(template)} must start with a URI scheme (like "file:")`, ['uriTemplate']));
    }
    if (parsed.variables.length === 0) {
      out.push(report(t, 'MCPG025', `resource template ${JSON.stringify(template)} has no {variables}; declare it under resources instead`, ['uriTemplate']));
    }
    const seen = new Set<string>();
    for (const v of parsed.variables) {
      if (seen.has(v.name)) out.push(report(t, 'MCPG026', `variable "${v.name}" appears twice in resource template ${JSON.stringify(template)}`, ['uriTemplate']));
      seen.add(v.name);
    }
  }
  return out;
}

export function checkPrompts(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of view.prompts) {
    const seen = new Set<string>();
    (p.value.arguments ?? []).forEach((a, i) => {
      if (seen.has(a.name)) out.push(report(p, 'MCPG027', `argument "${a.name}" appears twice in prompt ${JSON.stringify(p.value.name)}`, ['arguments', i, 'name']));
      seen.add(a.name);
    });
  }
  return out;
}
