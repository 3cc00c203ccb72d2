import { envName } from '../../common/http-binding.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report, where } from '../report.js';
import type { RawUpstreamScheme } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';

/** The fields each scheme type takes besides `type` and `env`; the first list is required. */
const FIELDS: Readonly<Record<RawUpstreamScheme['type'], readonly (keyof RawUpstreamScheme)[]>> = {
  apiKey: ['in', 'name'],
  bearer: [],
  basic: [],
  oauth2: ['tokenUrl'],
};
const OPTIONAL_FIELDS: readonly (keyof RawUpstreamScheme)[] = ['in', 'name', 'tokenUrl'];

/**
 * `upstream:` (MCPG118, MCPG119, MCPG134, MCPG136): each file's section as written, the merge of the
 * sections (upstream.ts), and what the bound tools need of it at run time.
 */
export function checkUpstream(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const upstream = view.upstream;
  const server = view.spec.server?.name ?? 'server';
  for (const c of upstream?.conflicts ?? []) {
    out.push(report(c.other, 'MCPG119', `upstream.${c.key} differs from the value at ${where(c.kept)} (both included files; set it in the root spec to choose)`, [], 'key'));
  }
  for (const section of upstream?.sections ?? []) {
    const base = section.value.baseUrl;
    const problem = base === undefined ? undefined : baseUrlProblem(base);
    if (problem !== undefined) out.push(report(section, 'MCPG136', `upstream.baseUrl ${JSON.stringify(base)} ${problem}`, ['baseUrl']));
    for (const [name, scheme] of Object.entries(section.value.security ?? {})) out.push(...schemeFields({ value: scheme, source: section.source, path: ['upstream', 'security', name] }, name));
  }
  const envs = new Map<string, string>();
  for (const [name, scheme] of Object.entries(upstream?.value.security ?? {})) {
    const env = scheme.env ?? envName(server, name);
    const first = envs.get(env);
    if (first === undefined) envs.set(env, name);
    else out.push(report(upstream!.at.get(`security.${name}`)!, 'MCPG134', `upstream.security "${name}" reads its secret from ${env}, as "${first}" does; give one of them its own \`env\``, [], 'key'));
  }
  const bound = view.tools.filter((t) => t.value.http !== undefined);
  if (bound.length > 0 && upstream?.value.baseUrl === undefined) {
    const first = bound[0]!;
    out.push(report(first, 'MCPG118', `${bound.length} tool(s) are bound with \`http:\` but no upstream.baseUrl is given: set ${envName(server, 'BASE_URL')} when the server runs, or add \`upstream: { baseUrl: https://… }\``, ['http'], 'key'));
  }
  return out;
}

function schemeFields(scheme: Located<RawUpstreamScheme>, name: string): Diagnostic[] {
  const needed = FIELDS[scheme.value.type] ?? [];
  const out: Diagnostic[] = [];
  const missing = needed.filter((f) => scheme.value[f] === undefined);
  if (missing.length > 0) out.push(report(scheme, 'MCPG134', `upstream.security "${name}" (${scheme.value.type}) needs ${missing.map((f) => `\`${f}\``).join(' and ')}`, [], 'key'));
  for (const field of OPTIONAL_FIELDS) {
    if (scheme.value[field] !== undefined && !needed.includes(field)) out.push(report(scheme, 'MCPG134', `upstream.security "${name}" (${scheme.value.type}) does not take \`${field}\``, [field], 'key'));
  }
  return out;
}

function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `uses ${url.protocol.replace(/:$/, '')} (http or https is needed)`;
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(value)) return 'has a query or fragment (the operation paths are appended to it)';
  return undefined;
}
