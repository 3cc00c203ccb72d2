// Hostile traffic against a generated HTTP server in its own process: a seeded, bounded run of
// malformed and adversarial requests on 127.0.0.1. Every answer must carry the status and JSON-RPC
// code the transport rules name, the process must survive, and its memory must stay bounded.
// FUZZ_REQUESTS raises the count (npm run fuzz uses 10,000).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base, type Case, heapAfterGc, judged, makeCase, request, sendCase, V } from '../support/hostile-cases.js';
import { prng } from '../support/prng.js';
import { ROOT, startScript } from '../support/servers.js';

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
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


function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

const send = (c: Case) => sendCase(url, c);

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
    const heapBefore = await heapAfterGc(child);
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
          const ok = judged(c, got);
          if (!ok && failures.length < 20) failures.push(`${c.kind}: got ${got.status}/${got.outcome}, want ${c.expect.map((e) => e.join('/')).join(' or ')}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(child.exitCode).toBeNull();
    const after = rssKb(child.pid!);
    // Let the last timeouts fire (handlers bounded at 300 ms, aborted streams) before weighing the heap.
    await new Promise((r) => setTimeout(r, 1000));
    const heapAfter = await heapAfterGc(child);
    process.stdout.write(`hostile HTTP: ${COUNT} requests; live heap ${(heapBefore / 1e6).toFixed(1)} → ${(heapAfter / 1e6).toFixed(1)} MB, RSS ${(before / 1e3).toFixed(0)} → ${(after / 1e3).toFixed(0)} MB\n`);
    // No per-request leak. What stays is one-off (validators compiled on a tool's first call, pools):
    // 3-6 MB whatever the count (seen: +6.3 MB after 2,000, +2.9 MB after 10,000). A leak of 1 KB per
    // request would pass 10 MB at the 10,000 of `npm run fuzz`, and 5 KB per request at 2,000.
    expect(heapAfter - heapBefore).toBeLessThan(10_000_000);
    // RSS also holds what V8 and the allocator keep after peaks (bodies past the 256 KiB limit, 8 at a time): a loose bound.
    expect(after).toBeLessThan(before * 2 + 60_000);
    expect([...counts.keys()].length).toBeGreaterThanOrEqual(17);
    expect((await send({ kind: 'valid', body: request('tools/list', {}), headers: base('tools/list'), expect: [] })).status).toBe(200);
  }, Math.max(120_000, COUNT * 20));

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
