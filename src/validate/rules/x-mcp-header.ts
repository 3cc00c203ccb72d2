import { isObjectSchema, resolveRef, walkSchema } from '../../common/json-schema.js';
import type { JsonObjectSchema, JsonSchema } from '../spec-types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import type { SpecView } from '../view.js';
import { specDefsMap } from './json-schema.js';

/** RFC 9110 tchar: ALPHA / DIGIT / ! # $ % & ' * + - . ^ _ ` | ~ */
export const TCHAR = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
/** Words that mark a secret, matched as whole words of a name (`Max-Tokens` and `Author` are not secrets). */
const SECRET_WORDS = new Set(['token', 'secret', 'secrets', 'password', 'passwd', 'passphrase', 'pwd', 'credential', 'credentials', 'authorization', 'auth', 'cookie', 'cookies', 'bearer', 'jwt', 'apikey', 'privatekey', 'accesskey', 'sessionid', 'otp']);
/** Word pairs that mark a secret: `api-key`, `apiKey`, `private_key`, `access-key`, `session-id`. */
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'secret key', 'session id', 'client secret']);
/** Run-together lowercase names (`accesstoken`, `clientsecret`) end with one of these. */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'passwd', 'apikey', 'cookie'];

/** The words of a name: split at separators, digits and camelCase humps, lowercased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** `token` counts that are numbers, not credentials: `Token-Count`, `token_limit`. */
const COUNT_WORDS = new Set(['count', 'counts', 'limit', 'limits', 'budget', 'usage', 'type']);

export function looksSecret(name: string): boolean {
  const words = nameWords(name);
  return words.some((w, i) => {
    if (w === 'token' && COUNT_WORDS.has(words[i + 1] ?? '')) return false;
    return SECRET_WORDS.has(w) || SECRET_PAIRS.has(`${w} ${words[i + 1] ?? ''}`) || SECRET_SUFFIXES.some((s) => w.length > s.length && w.endsWith(s));
  });
}
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** The x-mcp-header rules of the Streamable HTTP transport (X1–X4, X8), per tool. */
export function checkMcpHeaders(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const defs = specDefsMap(view);
  for (const tool of view.tools) {
    const input = tool.value.input;
    if (input === undefined) continue;
    const seen = new Map<string, string>();
    walkSchema(input, ({ schema, path, propertiesOnly }) => {
      if (!isObjectSchema(schema) || !('x-mcp-header' in schema)) return;
      const at = ['input', ...path, 'x-mcp-header'];
      const header = schema['x-mcp-header'];
      const toolName = JSON.stringify(tool.value.name);
      if (!propertiesOnly || path.length === 0) {
        out.push(report(tool, 'MCPG016', `x-mcp-header must sit on a property reached from the input root through "properties" only (not ${describeRoute(path)}) in tool ${toolName}`, at, 'key'));
        return;
      }
      if (typeof header !== 'string' || header === '') {
        out.push(report(tool, 'MCPG013', `x-mcp-header must be a non-empty string in tool ${toolName}`, at));
        return;
      }
      if (!TCHAR.test(header)) {
        const bad = [...header].find((c) => !TCHAR.test(c)) ?? '';
        out.push(report(tool, 'MCPG013', `x-mcp-header ${JSON.stringify(header)} has ${JSON.stringify(bad)}: header names allow only RFC 9110 token characters (letters, digits, !#$%&'*+-.^_\`|~) in tool ${toolName}`, at));
        return;
      }
      if (/^mcp-param-/i.test(header)) {
        const rest = header.slice('Mcp-Param-'.length);
        const hint = rest === '' ? 'give the name that follows the prefix' : `write ${JSON.stringify(rest)}`;
        out.push(report(tool, 'MCPG050', `x-mcp-header ${JSON.stringify(header)} carries the "Mcp-Param-" prefix the transport adds itself (the header would be "Mcp-Param-${header}"); ${hint} in tool ${toolName}`, at));
        return;
      }
      const lower = header.toLowerCase();
      const prior = seen.get(lower);
      if (prior !== undefined) {
        out.push(report(tool, 'MCPG014', `x-mcp-header ${JSON.stringify(header)} duplicates ${JSON.stringify(prior)} (case-insensitive) in tool ${tool.value.name}`, at));
      } else seen.set(lower, header);
      const type = schema.type;
      if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
        const got = type === undefined ? untypedProperty(schema, input, defs) : `type ${JSON.stringify(type)}`;
        const extra = type === 'number' ? ' (number is forbidden: header values must compare exactly; use integer)' : '';
        out.push(report(tool, 'MCPG015', `x-mcp-header ${JSON.stringify(header)} is on a property with ${got}; it needs exactly one of string, integer, boolean${extra} in tool ${toolName}`, ['input', ...path]));
      }
      const propName = String(path[path.length - 1]);
      if (looksSecret(propName) || looksSecret(header)) {
        out.push(report(tool, 'MCPG017', `x-mcp-header ${JSON.stringify(header)} mirrors "${propName}", which looks secret, into a header that proxies and logs can see, in tool ${toolName}`, at));
      }
    });
  }
  // Annotations inside spec $defs can only be reached through $ref, which the transport forbids.
  for (const def of view.defs) {
    walkSchema(def.value, ({ schema, path }) => {
      if (isObjectSchema(schema) && 'x-mcp-header' in schema) {
        out.push(report(def, 'MCPG016', 'x-mcp-header inside $defs is reachable only through $ref, which the transport does not follow; put it on the tool\'s own property', [...path, 'x-mcp-header'], 'key'));
      }
    });
  }
  return out;
}

function describeRoute(path: readonly (string | number)[]): string {
  if (path.length === 0) return 'the root itself';
  for (let i = 0; i < path.length; i++) {
    if (path[i] === 'properties') i++;
    else return `through "${String(path[i])}"`;
  }
  return 'the root itself';
}

/**
 * What a property without its own "type" is, for MCPG015. Issue 24: a `$ref` to an object schema was
 * reported as `no "type"`, which sent people looking for a missing key instead of at the reference.
 */
function untypedProperty(schema: JsonObjectSchema, input: JsonSchema, defs: ReadonlyMap<string, JsonSchema>): string {
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return 'no "type"';
  const target = resolveRef(ref, input, defs);
  if (target.kind === 'unresolved') return `"$ref": ${JSON.stringify(ref)} (${target.reason})`;
  const type = isObjectSchema(target.schema) ? target.schema.type : undefined;
  const is = type === undefined ? 'a schema without "type"' : `type ${JSON.stringify(type)}`;
  // Header values are taken from the property as written: a $ref is not followed for them.
  return `"$ref": ${JSON.stringify(ref)}, which resolves to ${is} (the header is read from the property's own "type", not through $ref)`;
}
