// Disconnecting and slow clients against a generated server in its own process (--expose-gc): every
// closed stream is a cancel (CN2), listen streams closed by their clients are torn down, a client that
// never reads cannot make the server buffer without bound, and shutdown does not wait for gone clients.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCall, type RawCall } from '../support/raw-http.js';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';

// npm test: 300 of each, against a server whose maxListenStreams is 300; npm run fuzz: 1,000 against
// the SDK's default limit of 1,024 (the counts of issue #9).
const LISTEN_STREAMS = Number(process.env.DISCONNECT_STREAMS ?? 300);
const CALLS = Number(process.env.DISCONNECT_CALLS ?? 300);
const LIMIT = LISTEN_STREAMS >= 1000 ? 1024 : LISTEN_STREAMS;
const SERVER = join(ROOT, 'test/support/stream-server.mjs');

interface Stats {
  started: number;
  aborted: number;
  progressAborted: number;
  progressDone: number;
  published: number;
  heap: number;
}

/**
 * The server's counters and its live heap after a full GC; `counters` alone (SIGHUP: no GC, heap 0) for
 * polling a counter: a poll every 100 ms need not cost the server two full GCs.
 */
export function stats(child: ChildProcess, what: 'heap' | 'counters' = 'heap'): Promise<Stats> {
  return new Promise((resolve) => {
    let buffer = '';
    const onData = (c: Buffer) => {
      buffer += c.toString();
      const m = /stats (\{.*\})\n/.exec(buffer);
      if (m === null) return;
      child.stderr!.off('data', onData);
      resolve(JSON.parse(m[1]!) as Stats);
    };
    child.stderr!.on('data', onData);
    child.kill(what === 'heap' ? 'SIGUSR2' : 'SIGHUP');
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

/** Run `count` tasks, `concurrency` at a time. */
async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  }));
  return out;
}

const listen = (url: string, id: string | number, read = true) => rawCall(url, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, { id, read });
const MB = 1_000_000;

let server: HttpProcess;

beforeAll(async () => {
  server = await startScript(SERVER, [], { nodeFlags: ['--expose-gc'], env: LIMIT === 1024 ? {} : { MAX_LISTEN_STREAMS: String(LIMIT) } });
  // Warm up: JIT, validators, pools.
  for (let i = 0; i < 20; i++) {
    const c = rawCall(server.url, 'tools/call', { name: 'test_simple_text', arguments: {} });
    await (await c.response).once('end', () => {});
    await c.closed;
  }
});

afterAll(async () => {
  server.child.kill('SIGKILL');
});

describe('client disconnects', () => {
  it(`tears down all ${LISTEN_STREAMS} listen streams their clients closed, then accepts ${LIMIT} more (the limit)`, async () => {
    const open: RawCall[] = [];
    await pool(LISTEN_STREAMS, 50, async (i) => {
      const c = listen(server.url, `l${i}`);
      open.push(c);
      expect(await c.firstChunk).toContain('notifications/subscriptions/acknowledged');
    });
    // A full GC while they are open: what a Request only weakly linked to its connection loses is lost here.
    await stats(server.child);
    for (const c of open) c.destroy();
    await Promise.all(open.map((c) => c.closed));
    await new Promise((r) => setTimeout(r, 500));
    await stats(server.child);
    // A listen past the limit is refused: every stream above must be gone for these to pass.
    const more: RawCall[] = [];
    const acks = await pool(LIMIT, 128, async (i) => {
      const c = listen(server.url, `m${i}`);
      more.push(c);
      return c.firstChunk;
    });
    const refused = acks.filter((a) => !a.includes('notifications/subscriptions/acknowledged'));
    for (const c of more) c.destroy();
    expect(refused.slice(0, 3)).toEqual([]);
    expect(acks.length).toBe(LIMIT);
  }, 180_000);

  it(`aborts the handler of every one of ${CALLS} tool calls whose client went away`, async () => {
    const before = await stats(server.child);
    const calls: RawCall[] = [];
    await pool(CALLS, 100, async () => {
      const c = rawCall(server.url, 'tools/call', { name: 'test_simple_text', arguments: {} }, { meta: { 'test/mode': 'wait', progressToken: 'p' } });
      calls.push(c);
      await c.firstChunk; // the handler is running (its progress frame arrived)
    });
    const running = await stats(server.child); // a full GC while all of them wait
    expect(running.started - before.started).toBe(CALLS);
    for (const c of calls) c.destroy();
    await until(async () => (await stats(server.child, 'counters')).aborted - before.aborted >= CALLS, 15_000);
    expect((await stats(server.child)).aborted - before.aborted).toBe(CALLS);
  }, 180_000);
});

describe('clients that never read', () => {
  it('drop a progress stream past the buffer bound: the handler is cancelled, the heap stays bounded and returns to baseline', async () => {
    const base = await stats(server.child);
    // 60,000 progress notifications of 1 KB: 60 MB if the server kept what the client does not read.
    const c = rawCall(server.url, 'tools/call', { name: 'test_tool_with_progress', arguments: {} }, { meta: { 'test/frames': 60_000, 'test/size': 1000, progressToken: 'slow' }, read: false });
    await c.response;
    await until(async () => {
      const s = await stats(server.child, 'counters');
      return s.progressAborted + s.progressDone > base.progressAborted + base.progressDone;
    }, 60_000);
    const held = await stats(server.child); // the client has not closed its end
    c.destroy();
    await c.closed;
    await new Promise((r) => setTimeout(r, 300));
    const after = await stats(server.child);
    process.stdout.write(`never-reading progress client: live heap ${(base.heap / MB).toFixed(1)} → ${(held.heap / MB).toFixed(1)} (stalled) → ${(after.heap / MB).toFixed(1)} MB (gone)\n`);
    expect(held.progressAborted - base.progressAborted).toBe(1);
    expect(held.progressDone - base.progressDone).toBe(0);
    expect(held.heap - base.heap).toBeLessThan(10 * MB);
    expect(after.heap - base.heap).toBeLessThan(3 * MB);
  }, 120_000);

  it('drop a listen stream past the buffer bound: the heap stays bounded and returns to baseline', async () => {
    const base = await stats(server.child);
    const stalled = listen(server.url, 'stalled', false);
    await stalled.response;
    // 150,000 tools/list_changed events of ~170 bytes: 25 MB if the server kept them.
    const trigger = rawCall(server.url, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} }, { meta: { 'test/events': 150_000 } });
    await (await trigger.response).once('end', () => {});
    await trigger.closed;
    const held = await stats(server.child);
    // The server cut the stream: once the client reads again, what was in flight arrives, then the end —
    // without the subscription's result (a dropped stream, not a graceful teardown) and short of 150,000.
    const res = await stalled.response;
    let tail = '';
    res.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-4096)));
    let events = 0;
    res.on('data', (c: Buffer) => (events += c.toString().split('list_changed').length - 1));
    res.resume();
    const ended = await Promise.race([stalled.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
    stalled.destroy();
    expect(ended).toBe(true);
    expect(events).toBeLessThan(150_000);
    expect(tail).not.toContain('"result"');
    await new Promise((r) => setTimeout(r, 300));
    const after = await stats(server.child);
    process.stdout.write(`never-reading listen client: live heap ${(base.heap / MB).toFixed(1)} → ${(held.heap / MB).toFixed(1)} (stalled) → ${(after.heap / MB).toFixed(1)} MB (gone)\n`);
    expect(held.published - base.published).toBe(150_000);
    expect(held.heap - base.heap).toBeLessThan(10 * MB);
    expect(after.heap - base.heap).toBeLessThan(3 * MB);
    // Listening still works for clients that read.
    const fresh = listen(server.url, 'fresh');
    expect(await fresh.firstChunk).toContain('acknowledged');
    fresh.destroy();
  }, 120_000);
});

describe('shutdown', () => {
  it('ends listen streams with their result and does not wait for clients that went away', async () => {
    const own = await startScript(SERVER, [], { nodeFlags: ['--expose-gc'] });
    try {
      const reader = listen(own.url, 'reader');
      await reader.firstChunk;
      // A client that stalled a progress stream and then went away.
      const gone = rawCall(own.url, 'tools/call', { name: 'test_tool_with_progress', arguments: {} }, { meta: { 'test/frames': 20_000, 'test/size': 1000, progressToken: 'gone' }, read: false });
      await gone.response;
      await new Promise((r) => setTimeout(r, 300));
      gone.destroy();
      const t0 = Date.now();
      const code = await own.stop('SIGTERM');
      const took = Date.now() - t0;
      await reader.closed;
      expect(code).toBe(0);
      // The drain's grace is 10 s; nothing here is worth waiting for.
      expect(took).toBeLessThan(7_000);
      // The listen stream ended with its SubscriptionsListenResult (graceful teardown).
      expect(reader.text()).toMatch(/"id":"reader","result"|"result":\{[^]*"id":"reader"/);
    } finally {
      own.child.kill('SIGKILL');
    }
  }, 60_000);
});
