// The seeded hostile and valid requests the HTTP fuzz test (npm test, npm run fuzz) and the soak
// (npm run soak) send to test/support/hostile-server.mjs (the generated sql server), and how each is
// sent and judged: statuses and JSON-RPC codes the rules name, right answers to valid calls, and clients
// that go away mid-call or read slowly.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Prng } from './prng.js';

export const V = '2026-07-28';
export const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };
/** list_tables of the sql example's handlers (generated/sql/handlers.ts). */
const TABLES: Record<string, readonly string[]> = { 'us-east1': ['customers', 'invoices'], 'eu-west1': ['kunden'] };

export interface Case {
  readonly kind: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Acceptable (status, JSON-RPC code or 'isError' or 'ok' or 'empty') pairs. */
  readonly expect: readonly (readonly [number, Outcome | 'any'])[];
  /** The client goes away this many ms after sending (a cancel, CN2): no answer is expected. */
  readonly abortAfterMs?: number;
  /** The client reads the answer a small piece at a time, pausing this long between reads. */
  readonly slowReadMs?: number;
  /** For valid calls: whether the answer is the right one (a wrong answer is a failure of its own). */
  readonly verify?: (json: { result?: { structuredContent?: unknown } }) => boolean;
}

export type Outcome = number | 'isError' | 'ok' | 'empty' | 'unparsed' | 'aborted' | 'wrong';

export const base = (method: string, extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': method, ...extra });
export const request = (method: string, params: Record<string, unknown>, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

export function makeCase(r: Prng): Case {
  const valid = request('tools/list', {});
  switch (r.int(16)) {
    case 0: {
      const cut = valid.slice(0, r.int(valid.length - 2) + 1);
      return { kind: 'truncated JSON', body: cut + r.pick(['', '{', ']', '"']), headers: base('tools/list'), expect: [[400, -32700], [400, -32600]] };
    }
    case 1:
      return { kind: 'garbage', body: r.string(40).replace(/^[\s\d"[{tfn-]/, 'x'), headers: base('tools/list'), expect: [[400, -32700]] };
    case 2: {
      const shapes = [{ id: 1, method: 'tools/list' }, { jsonrpc: '1.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: {}, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, method: 7 }, { jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }, 42, 'str', null, true];
      const shape = r.pick(shapes);
      // A posted JSON-RPC response has no 2026-07-28 envelope: a server that also serves 2025-11-25 (the
      // default) hands it to the SDK's 2025 transport, which refuses the 2026-07-28 header with -32000.
      const response = typeof shape === 'object' && shape !== null && ('result' in shape || 'error' in shape);
      return { kind: 'wrong JSON-RPC shape', body: JSON.stringify(shape), headers: base('tools/list'), expect: response ? [[400, -32600], [400, -32000]] : [[400, -32600]] };
    }
    case 3:
      return { kind: 'batch', body: JSON.stringify(Array.from({ length: r.int(3) + 1 }, () => JSON.parse(valid))), headers: base('tools/list'), expect: [[400, -32600]] };
    case 4:
      // 408: at c=64 on a busy machine a 300 KB upload can outlast the hostile server's 1.5 s request timeout.
      return { kind: 'huge body', body: request('tools/list', { pad: 'x'.repeat(300 * 1024 + r.int(1000)) }), headers: base('tools/list'), expect: [[413, -32600], [413, -32000], [408, 'empty']] };
    case 5:
      return { kind: 'wrong content-type', body: valid, headers: { ...base('tools/list'), 'content-type': r.pick(['text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded']) }, expect: [[415, -32000]] };
    case 6: {
      const region = r.pick(['us-west1', 'eu-west1']);
      const bad = r.pick(['=?base64?***?=', '=?base64?YQ?=', '=?base64?/w==?=', `=?base64?${Buffer.from(region).toString('base64')}`]);
      const expectOk = bad === `=?base64?${Buffer.from(region).toString('base64')}`; // no suffix: a plain (mismatching) value
      return { kind: 'invalid base64 sentinel', body: request('tools/call', { name: 'list_tables', arguments: { region } }), headers: base('tools/call', { 'mcp-name': 'list_tables', 'mcp-param-region': bad }), expect: expectOk ? [[400, -32020]] : [[400, -32020]] };
    }
    case 7: {
      const method = `${r.pick(['x', 'tools', 'admin', 'resources'])}/${r.string(6).replace(/[^\x21-\x7e]/g, 'q')}`;
      return { kind: 'unknown method', body: request(method, {}), headers: base(method), expect: [[404, -32601], [400, -32020]] };
    }
    case 8: {
      const version = r.pick(['2025-11-25', '2099-01-01', 'v1', '', '2026-07-29']);
      const same = r.next() < 0.5;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': version } } });
      return { kind: same ? 'unsupported version' : 'version header ≠ body', body, headers: { ...base('tools/list'), 'mcp-protocol-version': same ? version || 'x' : V }, expect: same ? [[400, -32022], [400, -32020], [400, -32602]] : [[400, -32020], [400, -32602], [400, -32022]] };
    }
    case 9: {
      const region = r.pick([5, true, null, {}, [], 'ok']);
      const query = r.pick([1, '', null, 'SELECT 1']);
      const headers = base('tools/call', { 'mcp-name': 'execute_sql', ...(typeof region === 'string' || typeof region === 'number' || typeof region === 'boolean' ? { 'mcp-param-region': String(region) } : {}) });
      return { kind: 'invalid arguments', body: request('tools/call', { name: 'execute_sql', arguments: { region, query } }), headers, expect: [[200, 'isError']] };
    }
    case 10: {
      const query = r.pick(['THROW', 'HANG']);
      return { kind: `handler ${query}`, body: request('tools/call', { name: 'execute_sql', arguments: { region: 'eu-west1', query } }), headers: base('tools/call', { 'mcp-name': 'execute_sql', 'mcp-param-region': 'eu-west1' }), expect: [[200, 'isError']] };
    }
    case 11:
      return { kind: 'Mcp-Name mismatch', body: request('tools/call', { name: 'list_tables', arguments: { region: 'x' } }), headers: base('tools/call', { 'mcp-name': r.pick(['execute_sql', 'LIST_TABLES', 'list_tables2']), 'mcp-param-region': 'x' }), expect: [[400, -32020]] };
    case 12:
      return { kind: 'oversized header', body: valid, headers: { ...base('tools/list'), 'x-filler': 'y'.repeat(20_000 + r.int(20_000)) }, expect: [[431, 'any']] };
    case 13: {
      const query = r.pick(['HANG', 'SLOW']);
      return { kind: 'disconnecting client', body: request('tools/call', { name: 'execute_sql', arguments: { region: 'eu-west1', query } }), headers: base('tools/call', { 'mcp-name': 'execute_sql', 'mcp-param-region': 'eu-west1' }), abortAfterMs: 1 + r.int(150), expect: [[0, 'aborted'], [200, 'ok'], [200, 'isError']] };
    }
    case 14: {
      const region = r.pick(['eu-west1', 'us-east1', 'nowhere']);
      return { kind: 'slow reader', ...validCall(region), slowReadMs: 10 + r.int(40) };
    }
    case 15:
      return { kind: 'valid call', ...validCall(r.pick(['eu-west1', 'us-east1', 'nowhere'])) };
    default:
      return { kind: 'valid', body: valid, headers: base('tools/list'), expect: [[200, 'ok']] };
  }
}

function validCall(region: string): Pick<Case, 'body' | 'headers' | 'expect' | 'verify'> {
  const want = JSON.stringify({ tables: TABLES[region] ?? [] });
  return {
    body: request('tools/call', { name: 'list_tables', arguments: { region } }),
    headers: base('tools/call', { 'mcp-name': 'list_tables', 'mcp-param-region': region }),
    expect: [[200, 'ok']],
    verify: (json) => JSON.stringify(json.result?.structuredContent) === want,
  };
}

/** Send one case and name what came back. */
export async function sendCase(url: string, c: Case): Promise<{ status: number; outcome: Outcome }> {
  const controller = new AbortController();
  const timer = c.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), c.abortAfterMs);
  try {
    const res = await fetch(url, { method: 'POST', headers: c.headers, body: c.body, signal: controller.signal });
    let text = '';
    if (c.slowReadMs === undefined || res.body === null) text = await res.text();
    else {
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        await sleep(c.slowReadMs);
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    }
    if (text === '') return { status: res.status, outcome: 'empty' };
    try {
      const json = JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((l) => l.startsWith('data:')).pop()!.slice(5) : text);
      if (json.error) return { status: res.status, outcome: json.error.code };
      if (c.verify !== undefined && !json.result?.isError && !c.verify(json)) return { status: res.status, outcome: 'wrong' };
      return { status: res.status, outcome: json.result?.isError ? 'isError' : 'ok' };
    } catch {
      return { status: res.status, outcome: 'unparsed' };
    }
  } catch (e) {
    if (controller.signal.aborted) return { status: 0, outcome: 'aborted' };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether an answer is one the case allows. */
export function judged(c: Case, got: { status: number; outcome: Outcome }): boolean {
  return c.expect.some(([s, o]) => s === got.status && (o === 'any' || o === got.outcome));
}

/**
 * The live heap after a full collection, in bytes, of a server started from hostile-server.mjs with
 * --expose-gc (SIGUSR2 makes it collect and report): what a per-request leak would grow.
 */
export function heapAfterGc(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onData = (c: Buffer) => {
      const m = /heap-after-gc (\d+)/.exec(c.toString());
      if (m === null) return;
      child.stderr!.off('data', onData);
      resolve(Number(m[1]));
    };
    child.stderr!.on('data', onData);
    child.kill('SIGUSR2');
  });
}
