// RFC 6570 URI Template parsing (levels 1-4): enough to validate a template and list its variables.

export interface TemplateVariable {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix?: number;
  readonly operator: string;
}

export type TemplateParse =
  | { readonly ok: true; readonly variables: readonly TemplateVariable[] }
  | { readonly ok: false; readonly offset: number; readonly reason: string };

const OPERATORS = '+#./;?&';
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
// Literals: any URI character except the ones RFC 6570 excludes (CTL, SP, " ' % (unless pct) < > \ ^ ` { | }).
const LITERAL_BAD = /[\u0000-\u0020"'<>\\^`{|}\u007f]/;

export function parseUriTemplate(template: string): TemplateParse {
  const variables: TemplateVariable[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{') {
      const end = template.indexOf('}', i);
      if (end < 0) return { ok: false, offset: i, reason: 'unclosed "{"' };
      let body = template.slice(i + 1, end);
      if (body.includes('{')) return { ok: false, offset: i, reason: 'nested "{"' };
      let operator = '';
      if (body !== '' && OPERATORS.includes(body[0]!)) {
        operator = body[0]!;
        body = body.slice(1);
      } else if (body !== '' && '=,!@|'.includes(body[0]!)) {
        return { ok: false, offset: i + 1, reason: `operator "${body[0]}" is reserved by RFC 6570` };
      }
      if (body === '') return { ok: false, offset: i, reason: 'empty expression' };
      for (const spec of body.split(',')) {
        const m = /^(.*?)(\*|:([0-9]+))?$/.exec(spec)!;
        const name = m[1] ?? '';
        if (!VARNAME.test(name)) return { ok: false, offset: i, reason: `invalid variable name ${JSON.stringify(name)}` };
        const prefix = m[3] !== undefined ? Number(m[3]) : undefined;
        if (prefix !== undefined && (prefix < 1 || prefix > 9999 || m[3]!.startsWith('0'))) {
          return { ok: false, offset: i, reason: `prefix length ${m[3]} must be 1 to 9999` };
        }
        variables.push({ name, explode: m[2] === '*', operator, ...(prefix !== undefined ? { prefix } : {}) });
      }
      i = end + 1;
    } else if (c === '}') {
      return { ok: false, offset: i, reason: 'unmatched "}"' };
    } else if (c === '%' && !/^%[0-9A-Fa-f]{2}/.test(template.slice(i))) {
      return { ok: false, offset: i, reason: '"%" must start a percent-encoding like %20' };
    } else if (LITERAL_BAD.test(c)) {
      return { ok: false, offset: i, reason: `character ${JSON.stringify(c)} is not allowed in a URI template` };
    } else i++;
  }
  return { ok: true, variables };
}

/** RFC 3986 absolute URI: scheme ":" then only URI characters, percent-encodings well formed. */
export function absoluteUriProblem(uri: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri);
  if (scheme === null) return 'it has no scheme (like "file:" or "https:")';
  const bad = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/.exec(uri);
  if (bad !== null) return `character ${JSON.stringify(bad[0])} must be percent-encoded`;
  if (/%(?![0-9A-Fa-f]{2})/.test(uri)) return '"%" must start a percent-encoding like %20';
  return undefined;
}

export type TemplateMatch = Record<string, string | string[]>;

/** RFC 6570 §3.2 expression kinds: what starts and separates the values, and which are named. */
const OPERATOR_TABLE: Readonly<Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }>> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

interface Expression {
  readonly operator: string;
  readonly variables: readonly { readonly name: string; readonly explode: boolean; readonly prefix?: number }[];
}

/** A template as literal text and expressions (for a template parseUriTemplate accepts). */
function splitTemplate(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    const close = template.indexOf('}', open);
    let body = template.slice(open + 1, close);
    const operator = OPERATORS.includes(body[0]!) ? body[0]! : '';
    if (operator !== '') body = body.slice(1);
    const variables = body.split(',').map((spec) => {
      const m = /^(.*?)(\*|:([0-9]+))?$/.exec(spec)!;
      return { name: m[1]!, explode: m[2] === '*', ...(m[3] !== undefined ? { prefix: Number(m[3]) } : {}) };
    });
    parts.push({ operator, variables });
    i = close + 1;
  }
  return parts;
}

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

/**
 * Longest URI matched against templates. Adjacent `{+a}{+b}` expressions make matching quadratic in the
 * URI's length (the split between them is searched); 8 KiB, the request-line limit of common HTTP
 * servers, keeps the worst case to milliseconds. Longer URIs match no template (-32602 not found).
 */
export const MAX_MATCHED_URI = 8192;

/**
 * Match a URI against an RFC 6570 template (the inverse of expandUriTemplate, as far as it is defined):
 * literal parts must match exactly, `{?x,y}` / `{&x}` query parts are optional and order-free. Values are
 * percent-decoded; every variable outside a query expression is present ("" when empty). Returns null
 * when the URI does not match, holds a malformed percent-encoding or is longer than MAX_MATCHED_URI.
 */
export function matchUriTemplate(template: string, uri: string): TemplateMatch | null {
  if (uri.length > MAX_MATCHED_URI) return null;
  const compiled = compileMatcher(template);
  if (compiled === undefined) return null;
  const m = compiled.regex.exec(uri);
  if (m === null) return null;
  const out: TemplateMatch = {};
  // Defined, not assigned: a variable named `__proto__` would otherwise set the prototype and vanish.
  const set = (name: string, value: string | string[]) => Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  try {
    for (const [i, cap] of compiled.captures.entries()) {
      const raw = m[i + 1] ?? '';
      if (cap.kind === 'query') {
        if (raw === '') continue;
        for (const pair of raw.split('&')) {
          const eq = pair.indexOf('=');
          const name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
          if (compiled.queryNames.has(name)) set(name, decodeURIComponent(eq < 0 ? '' : pair.slice(eq + 1)));
        }
        continue;
      }
      const parts = cap.explode ? raw.split(cap.separator).filter((p) => p !== '') : [raw];
      const values = parts.map((p) => decodeURIComponent(cap.operator === ';' ? p.replace(new RegExp(`^${escape(cap.name)}=?`), '') : p));
      set(cap.name, cap.explode ? values : values.join(','));
    }
  } catch {
    return null; // decodeURIComponent: a "%" not followed by two hex digits, or bytes that are not UTF-8
  }
  return out;
}

/**
 * Why a matched value must not reach a handler, or undefined when all are safe. A value of a
 * single-segment expression (`{x}`, `{/x}`, `{.x}`, `{;x}`) must not hold "/" or "\" or be "." or "..";
 * a `{+x}`/`{#x}` value may span segments but must not start with "/", hold "//", a "." or ".." segment
 * or a "\"; no value may hold NUL. (R3: path traversal MUST be prevented for file:// resources; the
 * check runs for every scheme because handlers often map any URI onto files or upstream paths.)
 */
export function templateValueProblem(template: string, values: TemplateMatch): string | undefined {
  for (const part of splitTemplate(template)) {
    if (typeof part === 'string') continue;
    for (const v of part.variables) {
      const value = values[v.name];
      for (const s of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        const problem = valueProblem(part.operator, s);
        if (problem !== undefined) return `{${part.operator}${v.name}} ${problem}`;
      }
    }
  }
  return undefined;
}

function valueProblem(operator: string, s: string): string | undefined {
  if (s.includes('\u0000')) return 'holds a NUL character';
  if (operator === '?' || operator === '&') return undefined;
  if (s.includes('\\')) return 'holds a backslash';
  if (operator === '+' || operator === '#') {
    if (s.startsWith('/')) return 'starts with "/" (an absolute path)';
    const segments = s.split('/');
    if (segments.slice(0, -1).includes('')) return 'holds an empty segment ("//")';
    if (segments.some((seg) => seg === '.' || seg === '..')) return 'holds a "." or ".." segment';
    return undefined;
  }
  if (s.includes('/')) return 'holds "/" (it is a single path segment)';
  if (s === '.' || s === '..') return `is "${s}"`;
  return undefined;
}

interface Capture {
  readonly kind: 'value' | 'query';
  readonly name: string;
  readonly operator: string;
  readonly explode: boolean;
  readonly separator: string;
}

interface Matcher {
  readonly regex: RegExp;
  readonly captures: readonly Capture[];
  readonly queryNames: ReadonlySet<string>;
}

const matcherCache = new Map<string, Matcher | undefined>();

function compileMatcher(template: string): Matcher | undefined {
  if (matcherCache.has(template)) return matcherCache.get(template);
  let result: Matcher | undefined;
  if (parseUriTemplate(template).ok) {
    const hasQuery = /\{[?&]/.test(template);
    const hasFragment = template.includes('{#');
    // A "." or ";" expression starts where a value of another expression may not: keep those out of them
    // (expansion percent-encodes them there), so "{name}{.ext}" and "{id}{;mode}" split unambiguously.
    const dot = template.includes('{.') ? '.' : '';
    const semi = template.includes('{;') ? ';' : '';
    let re = '';
    const captures: Capture[] = [];
    const queryNames = new Set<string>();
    for (const part of splitTemplate(template)) {
      if (typeof part === 'string') {
        re += escape(part);
        continue;
      }
      const op = part.operator;
      if (op === '?' || op === '&') {
        // The whole query text of the expression, split into name=value pairs after matching (order-free).
        re += `(?:\\${op}([^#]*))?`;
        captures.push({ kind: 'query', name: '', operator: op, explode: false, separator: '&' });
        for (const v of part.variables) queryNames.add(v.name);
        continue;
      }
      const sep = OPERATOR_TABLE[op]!.sep;
      // `{+x}` takes "?" and "#" too, unless a query or fragment expression of the template needs them.
      const chars =
        op === '+' ? `[^${hasQuery ? '?' : ''}${hasFragment ? '#' : ''}]`
        : op === '#' ? '[^]'
        : op === '/' ? `[^?#/${dot}${semi}]`
        : op === '.' ? `[^?#/.${semi}]`
        : op === ';' ? `[^?#/;,${dot}]`
        : `[^?#/,${dot}${semi}]`;
      part.variables.forEach((v, k) => {
        const lead = op === '#' ? (k === 0 ? '#' : ',') : op === '.' || op === '/' || op === ';' ? `\\${op}` : k === 0 ? '' : ',';
        const body = v.explode ? `((?:${chars}|${escape(sep)})*)` : op === '+' || op === '#' ? `(${chars}*?)` : `(${chars}*)`;
        re += op === '/' || op === '.' || op === ';' || op === '#' ? `(?:${lead}${body})?` : `${lead}${body}`;
        captures.push({ kind: 'value', name: v.name, operator: op, explode: v.explode, separator: v.explode ? sep : ',' });
      });
    }
    result = { regex: new RegExp(`^${re}$`), captures, queryNames };
  }
  matcherCache.set(template, result);
  return result;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
