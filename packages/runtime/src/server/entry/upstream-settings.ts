// The upstream API's settings (a spec with `upstream:` and `http:` bindings) as settings of the entry point,
// like the MCPGEN_* ones: `<SERVER>_BASE_URL` and each credential's variables (an OAuth 2 scheme's client
// id, secret, token URL and scope too) are checked at start with the variable's name, accepted in a --config
// file, listed by --help and shown by --print-config with the secrets masked. The generated main.ts hands
// them in (`entryArgsOrExit({ definition, upstream })`); the proxy reads the same variables at call time.
import type { HttpAuth } from '../extensions/http-types.js';
import { maskUrl } from './settings.js';

export interface UpstreamSettings {
  /** `<SERVER>_BASE_URL`: replaces `baseUrl`. */
  readonly baseUrlEnv: string;
  /** The spec's `upstream.baseUrl`, when it gives one. */
  readonly baseUrl?: string;
  readonly auth?: readonly HttpAuth[];
}

type Env = Readonly<Record<string, string | undefined>>;

interface Variable {
  readonly name: string;
  readonly secret: boolean;
  readonly what: string;
  /** The value must be an http(s) URL. */
  readonly url?: boolean;
}

/** Every variable the upstream reads, with whether it holds a secret and what it is for (--help). */
export function upstreamVariables(u: UpstreamSettings): Variable[] {
  const out: Variable[] = [{ name: u.baseUrlEnv, secret: false, url: true, what: `the upstream API's base URL${u.baseUrl !== undefined ? ` (default ${u.baseUrl})` : ' (required: the spec gives none)'}` }];
  for (const a of u.auth ?? []) {
    if (a.type === 'oauth2') {
      out.push(
        { name: a.env, secret: true, what: 'upstream OAuth 2 access token (or the client credentials below)' },
        { name: `${a.env}_CLIENT_ID`, secret: false, what: 'upstream OAuth 2 client id (client credentials grant)' },
        { name: `${a.env}_CLIENT_SECRET`, secret: true, what: 'upstream OAuth 2 client secret' },
        { name: `${a.env}_TOKEN_URL`, secret: false, url: true, what: `upstream token endpoint (default ${a.tokenUrl})` },
        { name: `${a.env}_SCOPE`, secret: false, what: 'upstream OAuth 2 scope' },
      );
    } else out.push({ name: a.env, secret: true, what: a.type === 'apiKey' ? `upstream API key (${a.in} ${a.name})` : `upstream ${a.type} credential` });
  }
  return out.filter((v, i) => out.findIndex((w) => w.name === v.name) === i);
}

/** Refuses what would fail every call, naming the variable: a base URL that is missing or not http(s), half a client. */
export function checkUpstream(u: UpstreamSettings, env: Env): void {
  const set = (name: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  if (set(u.baseUrlEnv) === undefined && u.baseUrl === undefined) throw new Error(`${u.baseUrlEnv} is not set: the spec gives no upstream.baseUrl, so the upstream API's base URL must come from it`);
  for (const v of upstreamVariables(u)) {
    const value = set(v.name);
    if (v.url === true && value !== undefined && !isHttpUrl(value)) throw new Error(`${v.name} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  for (const a of u.auth ?? []) {
    if (a.type !== 'oauth2') continue;
    const id = set(`${a.env}_CLIENT_ID`);
    const secret = set(`${a.env}_CLIENT_SECRET`);
    if ((id === undefined) !== (secret === undefined)) throw new Error(`${a.env}_CLIENT_ID and ${a.env}_CLIENT_SECRET go together: ${id === undefined ? `${a.env}_CLIENT_ID` : `${a.env}_CLIENT_SECRET`} is not set`);
  }
}

/** The upstream's settings as --print-config shows them: the base URL in force, each credential set or not, never its value. */
export function printableUpstream(u: UpstreamSettings, env: Env): Record<string, unknown> {
  const set = (name: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  const shown: Record<string, string> = {};
  for (const v of upstreamVariables(u).slice(1)) {
    const value = set(v.name);
    shown[v.name] = value === undefined ? 'not set' : v.secret ? 'set (***)' : value;
  }
  const base = set(u.baseUrlEnv) ?? u.baseUrl;
  return { baseUrl: base === undefined ? undefined : maskUrl(base), baseUrlFrom: set(u.baseUrlEnv) !== undefined ? u.baseUrlEnv : 'the spec', ...(Object.keys(shown).length > 0 ? { credentials: shown } : {}) };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
