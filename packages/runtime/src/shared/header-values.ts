// Header value encoding of the Streamable HTTP transport (2026-07-28): Mcp-Name and Mcp-Param-*.

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/** One `x-mcp-header` declaration of a tool: header `Mcp-Param-${header}` mirrors the argument at `path`. */
export interface HeaderDeclaration {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

/** Visible ASCII, space and tab, no leading/trailing whitespace, and not itself shaped like a sentinel. */
function isPlainSafe(value: string): boolean {
  if (!/^[\x20-\x7e\t]*$/.test(value)) return false;
  if (/^[ \t]|[ \t]$/.test(value)) return false;
  return !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
}

export function encodeHeaderValue(value: string): string {
  return isPlainSafe(value) ? value : `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

/** The decoded value, or `undefined` when a sentinel is malformed (bad base64 or bad UTF-8). */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length)) return value;
  const b64 = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

/** The argument at a declaration's path, as its header text; `undefined` when absent or null. */
export function headerTextOf(args: unknown, decl: HeaderDeclaration): string | undefined {
  let v: unknown = args;
  for (const key of decl.path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' && Number.isFinite(v)) return Number.isInteger(v) ? String(v) : String(v);
  return undefined;
}

export type ParamHeaderProblem = { readonly header: string; readonly message: string };

/**
 * Server-side check of Mcp-Param-* against the body (V5–V7): present value → header present and equal
 * (integers numerically); absent value → no header; malformed sentinel → mismatch.
 */
export function checkParamHeaders(
  declarations: readonly HeaderDeclaration[],
  args: unknown,
  getHeader: (name: string) => string | null,
): ParamHeaderProblem | undefined {
  for (const decl of declarations) {
    const name = `Mcp-Param-${decl.header}`;
    const body = headerTextOf(args, decl);
    const raw = getHeader(name);
    if (body === undefined) {
      if (raw !== null) return { header: name, message: `Header mismatch: ${name} header is present but the argument is absent from the body` };
      continue;
    }
    if (raw === null) return { header: name, message: `Header mismatch: required header ${name} is missing` };
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return { header: name, message: `Header mismatch: ${name} header value is not a valid base64 sentinel` };
    const equal = decl.type === 'integer' ? decoded.trim() !== '' && Number(decoded) === Number(body) : decoded === body;
    if (!equal) return { header: name, message: `Header mismatch: ${name} header value '${printable(decoded)}' does not match body value '${printable(body)}'` };
  }
  return undefined;
}

/** Header values for a call, as the client sends them. */
export function paramHeadersFor(declarations: readonly HeaderDeclaration[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const decl of declarations) {
    const text = headerTextOf(args, decl);
    if (text !== undefined) out[`Mcp-Param-${decl.header}`] = encodeHeaderValue(text);
  }
  return out;
}

function printable(s: string): string {
  const clipped = s.length > 64 ? `${s.slice(0, 64)}…` : s;
  return clipped.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
