// RFC 6570 URI Templates (levels 1-4): parsing (uri-template-parse.ts), expansion (here: the generated
// client's), and matching with the value rules a server applies (uri-template-match.ts). This file is the
// package subpath `@mcpgen/runtime/shared/uri-template` the generator and the runtime import.
import { OPERATOR_TABLE, splitTemplate } from './uri-template-parse.js';

export { absoluteUriProblem, parseUriTemplate, type TemplateParse, type TemplateVariable } from './uri-template-parse.js';
export { MAX_MATCHED_URI, matchUriTemplate, templateValueProblem, type TemplateMatch } from './uri-template-match.js';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;

/**
 * Expand a template (RFC 6570 levels 1–4) so that matchUriTemplate gives the same values back:
 * `%` is always percent-encoded (also in `{+x}`/`{#x}`); `.` in `{.x}` values, and in `{x}`, `{/x}`
 * values when the template has a `{.x}` expression; in a `{+x}` value a `?` when the template has a
 * query expression and a `#` when it has a fragment expression (they would end the value early).
 * Otherwise `{+x}` and `{#x}` keep reserved characters as RFC 6570 says.
 */
export function expandUriTemplate(template: string, variables: Readonly<Record<string, unknown>>): string {
  const hasQuery = /\{[?&]/.test(template);
  const hasFragment = template.includes('{#');
  const hasDot = template.includes('{.');
  let out = '';
  for (const part of splitTemplate(template)) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const op = OPERATOR_TABLE[part.operator]!;
    const keep = (ch: string): boolean => {
      if (ch === '.' && (part.operator === '.' || (hasDot && !op.reserved && !op.named))) return false;
      if (UNRESERVED.test(ch)) return true;
      if (!op.reserved || !RESERVED.test(ch)) return false;
      return !(part.operator === '+' && ((ch === '?' && hasQuery) || (ch === '#' && hasFragment)));
    };
    const encode = (value: string, prefix: number | undefined) => {
      const chars = [...value];
      return (prefix !== undefined ? chars.slice(0, prefix) : chars).map((ch) => (keep(ch) ? ch : percentEncode(ch))).join('');
    };
    const pieces: string[] = [];
    for (const v of part.variables) {
      const raw = variables[v.name];
      if (raw === undefined || raw === null) continue;
      const list = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      if (Array.isArray(raw) && list.length === 0) continue;
      const named = (text: string) => (op.named ? (text === '' ? `${v.name}${op.ifEmpty}` : `${v.name}=${text}`) : text);
      if (Array.isArray(raw) && v.explode) pieces.push(list.map((x) => named(encode(x, undefined))).join(op.sep));
      else pieces.push(named(list.map((x) => encode(x, Array.isArray(raw) ? undefined : v.prefix)).join(',')));
    }
    if (pieces.length > 0) out += op.first + pieces.join(op.sep);
  }
  return out;
}

function percentEncode(ch: string): string {
  return [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

