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

/**
 * Match a URI against an RFC 6570 template (the inverse of expansion, as far as it is defined):
 * literal parts must match exactly, `{?x,y}` / `{&x}` query parts are optional and order-free.
 * Returns the decoded variables, or null.
 */
export function matchUriTemplate(template: string, uri: string): TemplateMatch | null {
  const compiled = compileMatcher(template);
  if (compiled === undefined) return null;
  const [pathPart, queryPart] = splitQuery(uri, compiled.hasQuery);
  const m = compiled.regex.exec(pathPart);
  if (m === null) return null;
  const out: TemplateMatch = {};
  compiled.captures.forEach((cap, i) => {
    const raw = m[i + 1];
    if (raw === undefined || raw === '') return;
    const parts = cap.explode ? raw.split(cap.separator).filter((p) => p !== '') : [raw];
    const values = parts.map((p) => safeDecode(cap.operator === ';' ? p.replace(new RegExp(`^${escape(cap.name)}=?`), '') : p));
    out[cap.name] = cap.explode ? values : values.join(',');
  });
  if (compiled.query.length > 0 && queryPart !== undefined) {
    for (const pair of queryPart.split('&')) {
      const eq = pair.indexOf('=');
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      if (compiled.query.includes(name)) out[name] = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    }
  } else if (compiled.query.length === 0 && queryPart !== undefined) return null;
  return out;
}

interface Capture {
  readonly name: string;
  readonly operator: string;
  readonly explode: boolean;
  readonly separator: string;
}

const matcherCache = new Map<string, { regex: RegExp; captures: Capture[]; query: string[]; hasQuery: boolean } | undefined>();

function compileMatcher(template: string) {
  if (matcherCache.has(template)) return matcherCache.get(template);
  const parsed = parseUriTemplate(template);
  let result: { regex: RegExp; captures: Capture[]; query: string[]; hasQuery: boolean } | undefined;
  if (parsed.ok) {
    let re = '';
    const captures: Capture[] = [];
    const query: string[] = [];
    let i = 0;
    while (i < template.length) {
      const open = template.indexOf('{', i);
      const literalEnd = open < 0 ? template.length : open;
      re += escape(template.slice(i, literalEnd));
      if (open < 0) break;
      const close = template.indexOf('}', open);
      const body = template.slice(open + 1, close);
      const op = '+#./;?&'.includes(body[0]!) ? body[0]! : '';
      const specs = (op === '' ? body : body.slice(1)).split(',').map((s) => ({ name: s.replace(/(\*|:\d+)$/, ''), explode: s.endsWith('*') }));
      if (op === '?' || op === '&') query.push(...specs.map((s) => s.name));
      else {
        const sep = op === '' || op === '+' || op === '#' ? ',' : op === '.' ? '.' : op === '/' ? '/' : ';';
        const chars = op === '+' || op === '#' ? '[^?#]' : op === '/' ? '[^?#/]' : op === '.' ? '[^?#/.]' : '[^?#/,]';
        specs.forEach((s, k) => {
          const lead = op === '#' ? (k === 0 ? '#' : ',') : op === '.' || op === '/' || op === ';' ? `\\${op === '/' ? '/' : op}` : k === 0 ? '' : ',';
          const body = s.explode ? `((?:${chars}|${escape(sep)})*)` : op === '+' || op === '#' ? `(${chars}*?)` : `(${chars}*)`;
          re += op === '/' || op === '.' || op === ';' || op === '#' ? `(?:${lead}${body})?` : `${lead}${body}`;
          captures.push({ name: s.name, operator: op, explode: s.explode, separator: s.explode ? sep : ',' });
        });
      }
      i = close + 1;
    }
    result = { regex: new RegExp(`^${re}$`), captures, query, hasQuery: query.length > 0 || template.includes('?') };
  }
  matcherCache.set(template, result);
  return result;
}

function splitQuery(uri: string, templateHasQuery: boolean): [string, string | undefined] {
  const q = uri.indexOf('?');
  if (q < 0) return [uri, undefined];
  return templateHasQuery ? [uri.slice(0, q), uri.slice(q + 1)] : [uri, undefined];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
