// Retries of proxied calls, counted at an upstream on 127.0.0.1: idempotent methods are sent again after
// a 5xx, a timeout or a refused connection, a bounded number of times, waiting Retry-After when the
// upstream gives one; POST and PATCH are sent once whatever happens.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, type HttpBinding } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => (upstream = await startMockUpstream()));
afterAll(() => upstream.stop());

type Result = { isError?: boolean; content: { text: string }[] };
const binding = (method: string): HttpBinding => ({ method, path: '/jobs', params: [], output: false });
const failing = (status: number, headers: Record<string, string> = {}) => (upstream.reply = (_r, _i, res) => void res.writeHead(status, headers).end('busy'));
const run = async (method: string, options: Record<string, unknown> = {}) => {
  const before = upstream.requests.length;
  const result = (await callUpstream(binding(method), {}, { baseUrl: upstream.url, retryDelayMs: 5, ...options })) as unknown as Result;
  return { result, sent: upstream.requests.length - before };
};

describe('retries', () => {
  it('GET, HEAD, PUT, DELETE, OPTIONS: 1 + 2 attempts on a 503; POST and PATCH: 1', async () => {
    failing(503);
    for (const m of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) expect((await run(m)).sent, m).toBe(3);
    for (const m of ['POST', 'PATCH']) {
      const { result, sent } = await run(m);
      expect(sent, m).toBe(1);
      expect(result.isError).toBe(true);
    }
  });

  it('a 503 then a 200: the call succeeds; a 4xx is not retried', async () => {
    upstream.reply = (_r, i, res) => void (i % 2 === 0 ? res.writeHead(503).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end('done'));
    upstream.requests.length = 0;
    const { result, sent } = await run('GET');
    expect(sent).toBe(2);
    expect(result.content[0]!.text).toBe('done');
    failing(404);
    expect((await run('GET')).sent).toBe(1);
  });

  it('Retry-After is waited for; a longer one than maxRetryDelayMs is passed to the model instead', async () => {
    failing(503, { 'retry-after': '1' });
    const started = Date.now();
    expect((await run('GET', { retries: 1 })).sent).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    failing(503, { 'retry-after': '120' });
    const { result, sent } = await run('GET');
    expect(sent).toBe(1);
    expect(result.content[0]!.text).toContain('(Retry-After: 120)');
  });

  it('timeouts are retried for GET, not for POST; retries: 0 turns it off', async () => {
    upstream.reply = (_r, _i, res) => void setTimeout(() => res.writeHead(200).end(), 400);
    const get = await run('GET', { timeoutMs: 100 });
    expect(get.sent).toBe(3);
    expect(get.result.content[0]!.text).toBe('upstream GET /jobs failed: timed out after 100 ms');
    expect((await run('POST', { timeoutMs: 100 })).sent).toBe(1);
    expect((await run('GET', { timeoutMs: 100, retries: 0 })).sent).toBe(1);
  });

  it('a refused connection is retried for GET (counted by the accepting socket server)', async () => {
    let accepted = 0;
    const server = createServer((s) => {
      accepted++;
      s.destroy(); // accepted, then reset: the fetch fails like a dropped connection
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const result = (await callUpstream(binding('GET'), {}, { baseUrl: url, retryDelayMs: 5 })) as unknown as Result;
    const posted = accepted;
    await callUpstream(binding('POST'), {}, { baseUrl: url, retryDelayMs: 5 });
    server.close();
    expect(result.isError).toBe(true);
    expect(posted).toBe(3);
    expect(accepted - posted).toBe(1);
  });
});

describe('the retry budget', () => {
  it('an upstream that never answers: the attempts and their waits end within budgetMs', async () => {
    upstream.reply = () => undefined; // never answers
    const started = Date.now();
    const { result, sent } = await run('GET', { timeoutMs: 400, retries: 10, retryDelayMs: 1, budgetMs: 1_500 });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/timed out after \d+ ms/);
    // 10 retries allowed, but the budget holds 3 attempts of 400 ms and no fourth of at least 1 s.
    expect(sent).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(1_500 + 1_000);
  });

  it('by default it ends before the 60 s tool timeout of generated servers and the official client’s request timeout, with margin', async () => {
    const { DEFAULT_REQUEST_TIMEOUT_MSEC } = await import('@modelcontextprotocol/client');
    const { DEFAULT_BUDGET_MS, budgetOf } = await import('../../packages/runtime/src/server/extensions/http-retry.js');
    const { readFileSync } = await import('node:fs');
    const entry = readFileSync(new URL('../../src/emit/entry-files.ts', import.meta.url), 'utf8');
    const toolTimeout = Number(/toolTimeoutMs: ([\d_]+)/.exec(entry)![1]!.replaceAll('_', ''));
    expect(budgetOf({})).toBe(DEFAULT_BUDGET_MS);
    expect(DEFAULT_BUDGET_MS + 10_000).toBeLessThanOrEqual(Math.min(toolTimeout, DEFAULT_REQUEST_TIMEOUT_MSEC));
  });
});
