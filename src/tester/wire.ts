// The Streamable HTTP wire rules of tools/call (2026-07-28): Mcp-Name and every Mcp-Param-* header carry
// what the body says (base64 sentinel for what is not plain ASCII), and a header that disagrees is refused
// with 400 / -32020. The official client only ever sends the right headers, so the wrong ones go out as
// raw POSTs; the header values come from the runtime's own encoder (@mcpgen/runtime/shared).
import { encodeHeaderValue, paramHeadersFor } from '@mcpgen/runtime/shared';
import type { ToolModel } from '../model/ir.js';
import { HEADER_MISMATCH } from './judge.js';

const PROTOCOL = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'mcpgen-test', version: '1' } };

interface Answer {
  readonly status: number;
  readonly code?: number;
  readonly isError?: boolean;
}

async function post(url: string, tool: string, args: unknown, headers: Record<string, string>, timeoutMs: number): Promise<Answer | string> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL, 'mcp-method': 'tools/call', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args, _meta: META } }),
    });
    const text = await res.text();
    // JSON, or the last `data:` line of an SSE answer.
    const json = text.trimStart().startsWith('{') ? text : (text.split('\n').filter((l) => l.startsWith('data:')).at(-1)?.slice(5) ?? '');
    let message: { error?: { code?: unknown }; result?: { isError?: unknown } } = {};
    try {
      message = JSON.parse(json);
    } catch {
      // Not JSON: the status says enough.
    }
    return { status: res.status, ...(typeof message.error?.code === 'number' ? { code: message.error.code } : {}), ...(message.result?.isError === true ? { isError: true } : {}) };
  } catch (e) {
    return (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `request failed: ${(e as Error).message}`;
  }
}

/** A header value the body does not say: another string, number or boolean. */
function mismatched(value: string, type: 'string' | 'integer' | 'boolean'): string {
  if (type === 'integer') return String(Number(value) + 1);
  if (type === 'boolean') return value === 'true' ? 'false' : 'true';
  return encodeHeaderValue(`${value}-mismatch`);
}

/**
 * The probes for one tool with arguments that hold every header-bound value they can: right headers
 * accepted, then each header wrong (or left out) in turn refused. Undefined when all hold.
 */
export async function wireProblem(url: string, tool: ToolModel, args: Record<string, unknown>, timeoutMs: number): Promise<string | undefined> {
  const right: Record<string, string> = { 'mcp-name': encodeHeaderValue(tool.name), ...paramHeadersFor(tool.headers, args) };
  const ok = await post(url, tool.name, args, right, timeoutMs);
  if (typeof ok === 'string') return `with the right headers: ${ok}`;
  if (ok.status !== 200 || ok.code !== undefined) return `the right headers (${describe(right)}) were refused: HTTP ${ok.status}${ok.code === undefined ? '' : `, error ${ok.code}`}`;
  const wrongs: [string, Record<string, string>][] = [[`Mcp-Name: ${tool.name}-mismatch`, { ...right, 'mcp-name': encodeHeaderValue(`${tool.name}-mismatch`) }]];
  for (const h of tool.headers) {
    const name = `Mcp-Param-${h.header}`;
    const sent = right[name];
    if (sent === undefined) continue;
    const plain = paramHeadersFor([h], args)[name]!;
    const text = String(pathValue(args, h.path));
    const wrong = mismatched(text, h.type);
    wrongs.push([`${name}: ${wrong} (body ${JSON.stringify(text)}${plain === text ? '' : `, sent as ${plain}`})`, { ...right, [name]: wrong }]);
    const { [name]: _left, ...without } = right;
    wrongs.push([`${name} left out`, without]);
  }
  for (const [what, headers] of wrongs) {
    const a = await post(url, tool.name, args, headers, timeoutMs);
    if (typeof a === 'string') return `with ${what}: ${a}`;
    if (a.status !== 400 || (a.code !== undefined && a.code !== HEADER_MISMATCH)) return `a request with ${what} was not refused with 400 / ${HEADER_MISMATCH}: HTTP ${a.status}${a.code === undefined ? '' : `, error ${a.code}`}`;
  }
  return undefined;
}

function pathValue(args: unknown, path: readonly string[]): unknown {
  let v = args;
  for (const k of path) v = (v as Record<string, unknown> | undefined)?.[k];
  return v;
}

function describe(headers: Record<string, string>): string {
  return Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join(', ');
}
