// MCP Apps (io.modelcontextprotocol/ui): the `apps:` views and the tools that point at them.
import { absoluteUriProblem } from '@mcpgen/runtime/shared/uri-template';
import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { MAX_APP_HTML_BYTES } from '../../load/app-files.js';
import { report, where } from '../report.js';
import type { RawApp, RawUiCsp } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const satisfies readonly (keyof RawUiCsp)[];

export function checkApps(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const declared = new Map<string, Located<RawApp>>();
  const resourceUris = new Set(view.resources.map((r) => r.value.uri));
  for (const app of view.apps) {
    const uri = app.value.uri;
    const problem = uiUriProblem(uri);
    if (problem !== undefined) out.push(report(app, 'MCPG090', `app URI ${JSON.stringify(uri)} ${problem}`, ['uri']));
    const first = declared.get(uri);
    if (problem !== undefined) {
      // reported above; not a view any tool could point at
    } else if (first !== undefined) out.push(report(app, 'MCPG090', `app URI ${JSON.stringify(uri)} is declared twice (first at ${where(first, ['uri'])})`, ['uri']));
    else if (resourceUris.has(uri)) out.push(report(app, 'MCPG090', `app URI ${JSON.stringify(uri)} is also declared under resources`, ['uri']));
    else declared.set(uri, app);
    const file = view.appFiles.get(Number(app.path[1]));
    if (file !== undefined && 'problem' in file) {
      out.push(
        file.tooLarge !== undefined
          ? report(app, 'MCPG092', `${file.problem}; views are embedded in the generated server and sent whole, at most ${MAX_APP_HTML_BYTES} bytes (move images and scripts to a CDN listed in csp.resourceDomains)`, ['html'])
          : report(app, 'MCPG091', file.problem, ['html']),
      );
    }
    for (const key of CSP_KEYS) {
      (app.value.csp?.[key] ?? []).forEach((domain, i) => {
        const bad = originProblem(domain);
        if (bad !== undefined) out.push(report(app, 'MCPG093', `csp.${key} entry ${JSON.stringify(domain)} is not an origin: ${bad}`, ['csp', key, i]));
      });
    }
  }
  const used = new Set<string>();
  for (const tool of view.tools) {
    const ui = tool.value.ui;
    if (ui === undefined) continue;
    const uri = typeof ui === 'string' ? ui : ui.resource;
    const segments = typeof ui === 'string' ? ['ui'] : ['ui', 'resource'];
    used.add(uri);
    const problem = uiUriProblem(uri);
    if (problem !== undefined) {
      out.push(report(tool, 'MCPG090', `tool ${JSON.stringify(tool.value.name)}: ui ${JSON.stringify(uri)} ${problem}`, segments));
    } else if (!declared.has(uri)) {
      const hint = didYouMean(uri, [...declared.keys()]);
      out.push(report(tool, 'MCPG090', `tool ${JSON.stringify(tool.value.name)}: ui ${JSON.stringify(uri)} names no app declared under \`apps\`${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`, segments));
    }
  }
  for (const [uri, app] of declared) {
    if (!used.has(uri)) out.push(report(app, 'MCPG094', `app ${JSON.stringify(uri)} is not the \`ui\` of any tool; hosts show a view only for a tool that points at it`, ['uri']));
  }
  return out;
}

/** MCP Apps resources live under `ui://` (hosts look them up by that scheme), with a host part and a path. */
export function uiUriProblem(uri: string): string | undefined {
  if (!uri.startsWith('ui://')) return 'must start with "ui://" (MCP Apps views are ui:// resources)';
  const general = absoluteUriProblem(uri);
  if (general !== undefined) return `is not an absolute URI: ${general}`;
  if (!/^ui:\/\/[^/?#]+(\/[^?#]*)?$/.test(uri)) return 'needs a name after "ui://" and no query or fragment (like "ui://weather/forecast")';
  return undefined;
}

/**
 * Hosts turn these lists into Content-Security-Policy source expressions: only a bare origin
 * (`https://api.example.com`, `wss://live.example.com:8443`, `https://*.example.com`) means the same to all.
 */
export function originProblem(value: string): string | undefined {
  if (/\s/.test(value)) return 'it contains whitespace (one origin per entry)';
  if (value.includes('@')) return 'it has user info ("user@"); give the origin only';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(\*\.)?([^/?#@\s]+)(.*)$/.exec(value);
  if (m === null) return 'expected scheme://host[:port], like "https://api.example.com"';
  const [, scheme, wildcard, hostPort, rest] = m as unknown as [string, string, string | undefined, string, string];
  if (!['http', 'https', 'ws', 'wss'].includes(scheme.toLowerCase())) return `scheme "${scheme}:" is not http, https, ws or wss`;
  if (rest !== '') return `it has a path, query or fragment (${JSON.stringify(rest)}); give the origin only`;
  // Letters, digits, dots and dashes (or a bracketed IPv6): a ";" or quote would end the host's CSP directive.
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*)(:\d{1,5})?$/.test(hostPort)) return `host ${JSON.stringify(hostPort)} is not a valid host[:port]`;
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}://${wildcard !== undefined ? 'wildcard.' : ''}${hostPort}`);
  } catch {
    return `host ${JSON.stringify(hostPort)} is not a valid host[:port]`;
  }
  const host = wildcard !== undefined ? parsed.host.replace(/^wildcard\./, '') : parsed.host;
  // URL normalizes silently (default ports dropped, IDN to punycode, "1.2" to "0.0.1.2"): only a host that survives unchanged is an origin.
  const givenHost = hostPort.toLowerCase().replace(/:(80|443)$/, (p) => (parsed.port === '' ? '' : p));
  if (host !== givenHost) return `host ${JSON.stringify(hostPort)} is not a plain host[:port] (read as ${JSON.stringify(host)})`;
  return undefined;
}
