// Matching a URI against an RFC 6570 template (the server side of resources/read), and the rule for the
// values it hands a handler. Part of uri-template.ts.
import { OPERATOR_TABLE, parseUriTemplate, splitTemplate } from './uri-template-parse.js';

export type TemplateMatch = Record<string, string | string[]>;

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

