// The values of a generated entry point's deployment settings, checked before anything starts: a wrong value
// is one line naming the flag or variable it came from (exit 1), never a server that answers 401 to every
// token or a probe path Kubernetes never finds.
import { parseRate, RATE_FORMAT, type Rate } from '../../shared/rate.js';
import { isLoopbackHost } from './loopback.js';

/** Where a value came from (`--auth-issuers`, `MCPGEN_AUTH_ISSUERS`): named in the message. */
export interface Setting {
  readonly value: string;
  readonly source: string;
}

export type Checked<T> = T | { readonly error: string };

export function isError<T>(value: Checked<T>): value is { readonly error: string } {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/**
 * An authorization server's issuer identifier (RFC 8414 §2): an https URL without query or fragment; http
 * only on a loopback address (a development AS on the same machine).
 */
export function issuerList(setting: Setting): Checked<readonly string[]> {
  const items = setting.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) return { error: `${setting.source} is empty` };
  for (const item of items) {
    const problem = urlProblem(item, 'an issuer');
    if (problem !== undefined) return { error: `${setting.source}: ${problem}` };
    if (new URL(item).search !== '') return { error: `${setting.source}: ${JSON.stringify(item)} has a query (an issuer identifier has none)` };
  }
  return items;
}

/** The resource identifier (RFC 8707 §2, RFC 9728): an absolute https URL without fragment (http on loopback). */
export function resourceUrl(setting: Setting): Checked<string> {
  const value = setting.value.trim();
  const problem = urlProblem(value, 'a resource identifier');
  return problem !== undefined ? { error: `${setting.source}: ${problem}` } : value;
}

function urlProblem(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(value)} is not a URL (${what} is an https URL)`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) return `${JSON.stringify(value)} is not https (http only on a loopback address)`;
  if (url.hash !== '' || value.includes('#')) return `${JSON.stringify(value)} has a fragment (${what} has none)`;
  if (url.username !== '' || url.password !== '') return `${JSON.stringify(value)} holds credentials`;
  return undefined;
}

/** A probe path: `/…` without query, or `off`. It may not shadow the MCP endpoint or the metadata. */
export function probePath(setting: Setting, endpoint: string): Checked<string | false> {
  const value = setting.value.trim();
  if (value === 'off') return false;
  if (!/^\/[A-Za-z0-9\-._~/%]*$/.test(value)) return { error: `${setting.source}: ${JSON.stringify(value)} is not a path (starts with /, no query; off turns the probe off)` };
  if (value === endpoint || value.startsWith('/.well-known/')) return { error: `${setting.source}: ${value} is taken (the MCP endpoint or the authorization metadata)` };
  return value;
}

/** A whole number of seconds within bounds. */
export function seconds(setting: Setting, max: number): Checked<number> {
  const value = setting.value.trim();
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > max) return { error: `${setting.source} must be a whole number of seconds (0-${max}), got ${JSON.stringify(setting.value)}` };
  return n;
}

/** A rate: `<requests>/<duration>`, the duration in seconds or with a unit (`100/60`, `100/1m`, `5/1s`). */
export function rateRule(value: string, source: string): Checked<Rate> {
  return parseRate(value) ?? { error: `${source}: ${JSON.stringify(value)} is not a rate (${RATE_FORMAT})` };
}

/** `tool=rate,…` (MCPGEN_RATE_LIMIT_TOOLS). */
export function toolRates(value: string, source: string): Checked<Record<string, { points: number; durationSeconds: number }>> {
  const out: Record<string, { points: number; durationSeconds: number }> = {};
  for (const item of value.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = item.indexOf('=');
    const name = eq > 0 ? item.slice(0, eq).trim() : '';
    if (name === '') return { error: `${source}: ${JSON.stringify(item)} is not tool=rate` };
    const rule = rateRule(item.slice(eq + 1), `${source} (${name})`);
    if (isError(rule)) return rule;
    out[name] = rule;
  }
  if (Object.keys(out).length === 0) return { error: `${source} is empty` };
  return out;
}

/**
 * A comma-separated list of browser origins as the Origin header spells them (`scheme://host[:port]`, no
 * path): a hostname alone or a trailing path would never equal an Origin header, so it is refused here.
 */
export function originList(setting: { readonly value: string; readonly source: string }): readonly string[] | { readonly error: string } {
  const items = setting.value.split(',').map((s) => s.trim().replace(/\/$/, '')).filter((s) => s !== '');
  if (items.length === 0) return { error: `${setting.source} is empty` };
  for (const item of items) {
    if (!/^https?:\/\/(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%]+)(?::\d{1,5})?$/.test(item)) return { error: `${setting.source}: ${JSON.stringify(item)} is not an origin (scheme://host[:port], e.g. https://app.example)` };
  }
  return items.map((o) => o.toLowerCase());
}

/**
 * A comma-separated list of hostnames as the SDK's Host/Origin checks compare them (no scheme, no port,
 * IPv6 in brackets). A URL or host:port is refused here: it would never match and every request would get 403.
 */
export type HostList = readonly string[] | '*' | undefined;

export function hostList(setting: Setting | undefined): HostList | { error: string } {
  if (setting === undefined) return undefined;
  const items = setting.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 1 && items[0] === '*') return '*';
  if (items.length === 0) return { error: `${setting.source} is empty` };
  for (const item of items) {
    if (item === '*') return { error: `${setting.source}: * stands alone (it turns the check off)` };
    if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%]+)$/.test(item)) return { error: `${setting.source}: ${JSON.stringify(item)} is not a hostname (no scheme, no port; IPv6 in brackets)` };
  }
  return items.map((h) => h.toLowerCase());
}

/**
 * A per-tool rate limit naming a tool the server lacks (a typo, or a tool renamed since): refused when
 * serving and by --print-config alike, naming where the limit was set. (A tool the spec has but this
 * deployment does not expose is no typo: its limit stays, unused.)
 */
export function unknownLimitedTool(serverTools: readonly string[], limited: readonly string[], source: string | undefined): string | undefined {
  const unknown = limited.find((name) => !serverTools.includes(name));
  if (unknown === undefined) return undefined;
  return `${source !== undefined ? `${source}: ` : ''}rate limit for unknown tool ${JSON.stringify(unknown)} (the server's tools: ${serverTools.join(', ')})`;
}

/** A checked URL without its user name and password, for --print-config (Redis's, the upstream API's). */
export function maskUrl(value: string): string {
  const url = new URL(value);
  if (url.username !== '') url.username = '***';
  if (url.password !== '') url.password = '***';
  return url.toString();
}
