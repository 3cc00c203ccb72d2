// The spec's `upstream:` section read from the document: where the proxy sends requests and with which
// credentials; the secrets themselves come from the environment at run time (`<SERVER>_BASE_URL`, one
// variable per scheme, `<SERVER>_<SCHEME>`: the spec's default, so the import writes no `env`).
import { envName } from '../../common/http-binding.js';
import type { RawUpstreamScheme } from '../../validate/spec-types.js';
import { isObj } from './schema.js';
import type { ImportNote } from './notes.js';

type Obj = Record<string, unknown>;

export { envName };

/** The first server URL (2.0: scheme, host and basePath); a relative one stays relative to nothing: ''. */
export function upstreamBaseUrl(doc: Obj, swagger2: boolean): string {
  if (swagger2) {
    if (typeof doc.host !== 'string') return '';
    const scheme = Array.isArray(doc.schemes) && doc.schemes.includes('https') ? 'https' : (doc.schemes as string[] | undefined)?.[0] ?? 'https';
    return `${scheme}://${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`.replace(/\/+$/, '');
  }
  const first = Array.isArray(doc.servers) ? doc.servers.find(isObj) : undefined;
  if (first === undefined || typeof first.url !== 'string') return '';
  // Server variables take their defaults.
  const vars = isObj(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^}]+)\}/g, (_m, v: string) => {
    const d = isObj(vars[v]) ? (vars[v] as Obj).default : undefined;
    return typeof d === 'string' ? d : '';
  });
  return /^https?:\/\//i.test(url) ? url.replace(/\/+$/, '') : '';
}

/** A scheme's name as the spec takes it (`^[A-Za-z0-9_.-]+$`; OpenAPI 3 keys already are). */
export function schemeId(key: string): string {
  return key.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** `upstream.security`: one entry per security scheme the proxy can fill from the environment; others are reported. */
export function upstreamAuth(doc: Obj, swagger2: boolean, server: string, notes: ImportNote[]): Record<string, RawUpstreamScheme> {
  const schemes = swagger2 ? doc.securityDefinitions : isObj(doc.components) ? doc.components.securitySchemes : undefined;
  if (!isObj(schemes)) return {};
  const out: Record<string, RawUpstreamScheme> = {};
  const at = swagger2 ? ['securityDefinitions'] : ['components', 'securitySchemes'];
  const envs = new Set<string>();
  for (const [key, s] of Object.entries(schemes).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!isObj(s)) continue;
    const id = schemeId(key);
    const env = freeEnv(server, id, envs);
    if (s.type === 'apiKey' && typeof s.name === 'string' && (s.in === 'header' || s.in === 'query' || s.in === 'cookie')) out[id] = { type: 'apiKey', in: s.in, name: s.name };
    else if (s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') out[id] = { type: 'bearer' };
    else if (s.type === 'oauth2' && clientCredentialsUrl(s, doc, swagger2) !== undefined) out[id] = { type: 'oauth2', tokenUrl: clientCredentialsUrl(s, doc, swagger2)! };
    else if (s.type === 'oauth2' || s.type === 'openIdConnect') {
      // A flow with a user in it (authorization code, implicit) cannot run in a server: a token obtained elsewhere is sent.
      out[id] = { type: 'bearer' };
      notes.push({ code: 'MCPG132', pointer: [...at, key], message: `security scheme "${key}" (${s.type}) has no client credentials flow: the proxy sends the access token in ${env} as a bearer token` });
    }
    else if ((s.type === 'http' && String(s.scheme).toLowerCase() === 'basic') || s.type === 'basic') out[id] = { type: 'basic' };
    else notes.push({ code: 'MCPG132', pointer: [...at, key], message: `security scheme "${key}" (${String(s.type)}) is not filled by the proxy yet; set the upstream credentials another way` });
    if (out[id] === undefined || env === envName(server, id)) continue;
    out[id] = { ...out[id], env };
    notes.push({ code: 'MCPG132', pointer: [...at, key], message: `security scheme "${key}" reads its credential from ${env}: ${envName(server, id)} is another scheme's (their names differ only in case or punctuation)` });
  }
  return out;
}

/**
 * `<SERVER>_<SCHEME>`, or with `_2`, `_3`, … when a scheme before it took that: telnyx.com declares
 * `BearerAuth` and `bearerAuth`, which would read one variable (check refuses that, MCPG134), with a warning.
 */
function freeEnv(server: string, id: string, taken: Set<string>): string {
  let env = envName(server, id);
  for (let i = 2; taken.has(env); i++) env = envName(server, `${id}_${i}`);
  taken.add(env);
  return env;
}

/** The client credentials flow's token URL (2.0: `flow: application`), made absolute against the server URL. */
function clientCredentialsUrl(s: Obj, doc: Obj, swagger2: boolean): string | undefined {
  const url = swagger2 ? (s.flow === 'application' ? s.tokenUrl : undefined) : isObj(s.flows) && isObj(s.flows.clientCredentials) ? s.flows.clientCredentials.tokenUrl : undefined;
  if (typeof url !== 'string' || url === '') return undefined;
  try {
    return new URL(url, upstreamBaseUrl(doc, swagger2) || undefined).href;
  } catch {
    return url; // relative to a server URL that is itself relative: <ENV>_TOKEN_URL sets it
  }
}

/**
 * The schemes one operation sends, by name: its own `security` overrides the document's (`[]`: none).
 * Alternatives are all listed; only those with credentials configured are sent. `undefined` when
 * neither says: every configured scheme.
 */
export function operationSecurity(op: Obj, doc: Obj, schemes: Readonly<Record<string, RawUpstreamScheme>>): string[] | undefined {
  const requirements = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : undefined;
  if (requirements === undefined) return undefined;
  const named = new Set(requirements.filter(isObj).flatMap((r) => Object.keys(r)).map(schemeId));
  return Object.keys(schemes).filter((id) => named.has(id));
}
