// RFC 6570 URI Template syntax (levels 1-4): parsing a template to validate it and list its variables,
// and its split into literals and expressions that expansion and matching walk. Part of uri-template.ts.

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

/** RFC 6570 §3.2 expression kinds: what starts and separates the values, and which are named. */
export const OPERATOR_TABLE: Readonly<Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }>> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

export interface Expression {
  readonly operator: string;
  readonly variables: readonly { readonly name: string; readonly explode: boolean; readonly prefix?: number }[];
}

/** A template as literal text and expressions (for a template parseUriTemplate accepts). */
export function splitTemplate(template: string): (string | Expression)[] {
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
