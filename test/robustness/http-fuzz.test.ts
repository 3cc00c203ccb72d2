// Hostile traffic against a generated HTTP server in its own process: a seeded, bounded run of
// malformed and adversarial requests on 127.0.0.1. Every answer must carry the status and JSON-RPC
// code the transport rules name, the process must survive, and its memory must stay bounded.
// FUZZ_REQUESTS raises the count (npm run fuzz uses 10,000).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng, type Prng } from '../support/prng.js';
import { ROOT, startScript } from '../support/servers.js';

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };

let child: ChildProcess;
let url: string;
let port: number;

beforeAll(async () => {
  ({ child, url } = await startScript(join(ROOT, 'test/support/hostile-server.mjs'), [], { nodeFlags: ['--expose-gc'] }));
  port = Number(new URL(url).port);
});

afterAll(() => {
  child.kill('SIGKILL');
});

/** The server's live heap after a full collection, in bytes: what a per-request leak would grow. */
function heapAfterGc(): Promise<number> {
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

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

interface Case {
  readonly kind: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Acceptable (status, JSON-RPC code or 'isError' or 'ok' or 'empty') pairs. */
  readonly expect: readonly (readonly [number, number | 'isError' | 'ok' | 'empty' | 'any'])[];
}

const base = (method: string, extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': method, ...extra });
const request = (method: string, params: Record<string, unknown>, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

function makeCase(r: Prng): Case {
  const valid = request('tools/list', {});
  switch (r.int(14)) {
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
      return { kind: 'huge body', body: request('tools/list', { pad: 'x'.repeat(300 * 1024 + r.int(1000)) }), headers: base('tools/list'), expect: [[413, -32600], [413, -32000]] };
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
    default:
      return { kind: 'valid', body: valid, headers: base('tools/list'), expect: [[200, 'ok']] };
  }
}

async function send(c: Case): Promise<{ status: number; outcome: number | 'isError' | 'ok' | 'empty' | 'unparsed' }> {
  const res = await fetch(url, { method: 'POST', headers: c.headers, body: c.body });
  const text = await res.text();
  if (text === '') return { status: res.status, outcome: 'empty' };
  try {
    const json = JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((l) => l.startsWith('data:')).pop()!.slice(5) : text);
    if (json.error) return { status: res.status, outcome: json.error.code };
    return { status: res.status, outcome: json.result?.isError ? 'isError' : 'ok' };
  } catch {
    return { status: res.status, outcome: 'unparsed' };
  }
}

/** Raw bytes on a socket, for what fetch refuses to send (CRLF injection, duplicate headers). */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}

describe('hostile HTTP traffic', () => {
  it(`answers ${COUNT} seeded hostile requests with the statuses and codes the rules name, and survives`, async () => {
    const r = prng(SEED);
    // Warm up before measuring memory: JIT, caches and pools settle in the first requests.
    for (let i = 0; i < 100; i++) await send({ kind: 'valid', body: request('tools/list', {}), headers: base('tools/list'), expect: [] });
    const before = rssKb(child.pid!);
    const heapBefore = await heapAfterGc();
    const failures: string[] = [];
    const counts = new Map<string, number>();
    const cases = Array.from({ length: COUNT }, () => makeCase(r));
    const concurrency = 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
          const got = await send(c);
          const ok = c.expect.some(([s, o]) => s === got.status && (o === 'any' || o === got.outcome));
          if (!ok && failures.length < 20) failures.push(`${c.kind}: got ${got.status}/${got.outcome}, want ${c.expect.map((e) => e.join('/')).join(' or ')}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(child.exitCode).toBeNull();
    const after = rssKb(child.pid!);
    // Let the last timeouts fire (handlers bounded at 300 ms, aborted streams) before weighing the heap.
    await new Promise((r) => setTimeout(r, 1000));
    const heapAfter = await heapAfterGc();
    process.stdout.write(`hostile HTTP: ${COUNT} requests; live heap ${(heapBefore / 1e6).toFixed(1)} → ${(heapAfter / 1e6).toFixed(1)} MB, RSS ${(before / 1e3).toFixed(0)} → ${(after / 1e3).toFixed(0)} MB\n`);
    // No per-request leak. What stays is one-off (validators compiled on a tool's first call, pools):
    // 3-6 MB whatever the count (seen: +6.3 MB after 2,000, +2.9 MB after 10,000). A leak of 1 KB per
    // request would pass 10 MB at the 10,000 of `npm run fuzz`, and 5 KB per request at 2,000.
    expect(heapAfter - heapBefore).toBeLessThan(10_000_000);
    // RSS also holds what V8 and the allocator keep after peaks (bodies past the 256 KiB limit, 8 at a time): a loose bound.
    expect(after).toBeLessThan(before * 2 + 60_000);
    expect([...counts.keys()].length).toBeGreaterThanOrEqual(14);
    expect((await send({ kind: 'valid', body: request('tools/list', {}), headers: base('tools/list'), expect: [] })).status).toBe(200);
  }, Math.max(60_000, COUNT * 15));

  it('treats CRLF injection and duplicate headers as plain mismatches', async () => {
    const body = request('tools/call', { name: 'list_tables', arguments: { region: 'x' } });
    const head = (extra: string) => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: ${V}\r\nMcp-Method: tools/call\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const injected = await raw(head('Mcp-Name: list_tables\r\nMcp-Param-Region: y\r\nX-Injected: 1\r\n'));
    expect(injected).toMatch(/^HTTP\/1\.1 400/);
    expect(injected).toContain('-32020');
    const duplicated = await raw(head('Mcp-Name: list_tables\r\nMcp-Name: list_tables\r\nMcp-Param-Region: x\r\n'));
    expect(duplicated).toMatch(/^HTTP\/1\.1 400/);
    const splitting = await raw(head('Mcp-Name: list_tables\r\nMcp-Param-Region: x\rX-Evil: 1\r\n'));
    expect(splitting).toMatch(/^HTTP\/1\.1 400/);
    expect(child.exitCode).toBeNull();
  });

  it('drops a slow-loris body after the request timeout', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`);
    const answer = await new Promise<string>((resolve) => {
      let out = '';
      socket.on('data', (d) => (out += d.toString()));
      socket.on('close', () => resolve(out));
      // Keep dribbling a byte now and then: the whole-request timeout still applies.
      const drip = setInterval(() => socket.write(' '), 200);
      socket.on('close', () => clearInterval(drip));
      setTimeout(() => socket.destroy(), 10_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(child.exitCode).toBeNull();
  });
});
