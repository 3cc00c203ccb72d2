// MRTR requestState sealed by the runtime's key ring: what leaves the server is signed and bound to the
// tool and its arguments; what comes back is verified before the handler runs; keys rotate.
import { describe, expect, it, vi } from 'vitest';
import { createMcpgenServer, RequestStateKeyRing } from '../../packages/runtime/src/server/index.js';
import { readOptions } from '../../packages/runtime/src/server/entry/env-options.js';
import { importCompiled } from '../support/servers.js';
import { mcpRequest } from '../support/mcp-request.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const { definition: sql } = await importCompiled<{ definition: Parameters<typeof createMcpgenServer>[0] }>('sql', 'definition.js');

const K1 = { id: 'k1', secret: 'one-secret-of-at-least-32-bytes!!' };
const K2 = { id: 'k2', secret: 'two-secret-of-at-least-32-bytes!!' };

type Ctx = { elicit: { confirm: { response: unknown; ask: (o: object) => unknown } }; requestState: string | undefined };

/** A sql server whose execute_sql asks once, with the query as its state, and returns what it read back. */
function server(ring: RequestStateKeyRing) {
  const seen: (string | undefined)[] = [];
  const handler = createMcpgenServer(sql, {
    executeSql: ({ query }: { query: string }, ctx: Ctx) => {
      seen.push(ctx.requestState);
      if (ctx.elicit.confirm.response === undefined) return ctx.elicit.confirm.ask({ requestState: `asked:${query}` });
      return { columns: ['state'], rows: [[ctx.requestState ?? '']], rowCount: 1 };
    },
    listTables: () => ({ tables: [] }),
  }, { requestStateKeys: ring }).http();
  return { handler, seen };
}

async function call(handler: { fetch: (r: Request) => Promise<Response> }, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const params = { name: 'execute_sql', arguments: args, _meta: META, ...extra };
  const r = await handler.fetch(mcpRequest('tools/call', params, { headers: { 'mcp-param-region': String(args.region) } }));
  return JSON.parse(await r.text()) as { result?: Record<string, unknown> & { requestState?: string }; error?: { code: number; message: string } };
}

const ARGS = { region: 'eu-west1', query: 'DELETE FROM t' };
const CONFIRM = { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } };

async function firstRound(handler: Parameters<typeof call>[0], args = ARGS): Promise<string> {
  const first = await call(handler, args);
  expect(first.result?.resultType).toBe('input_required');
  return first.result!.requestState!;
}

describe('requestState key ring', () => {
  it('seals the handler state, verifies it on the retry and hands back exactly what the handler wrote', async () => {
    const { handler, seen } = server(new RequestStateKeyRing([K1]));
    const state = await firstRound(handler);
    expect(state).toMatch(/^m1\.k1\.v1\./);
    expect(state).not.toContain('asked:'); // the wire value is the sealed form, not the raw string
    const retry = await call(handler, ARGS, { requestState: state, ...CONFIRM });
    expect(retry.result?.structuredContent).toEqual({ columns: ['state'], rows: [['asked:DELETE FROM t']], rowCount: 1 });
    expect(seen).toEqual([undefined, 'asked:DELETE FROM t']);
  });

  it('verifies on another instance that has the same keys', async () => {
    const a = server(new RequestStateKeyRing([K1]));
    const b = server(new RequestStateKeyRing([K1]));
    const state = await firstRound(a.handler);
    const retry = await call(b.handler, ARGS, { requestState: state, ...CONFIRM });
    expect(retry.result?.structuredContent).toMatchObject({ rows: [['asked:DELETE FROM t']] });
  });

  it.each([
    ['a flipped character in the body', (s: string) => s.slice(0, 20) + (s[20] === 'A' ? 'B' : 'A') + s.slice(21), 'mac'],
    ['a flipped character in the MAC', (s: string) => s.slice(0, -3) + (s.at(-3) === 'A' ? 'B' : 'A') + s.slice(-2), 'mac'],
    ['an unknown key id', (s: string) => s.replace('m1.k1.', 'm1.k9.'), 'unknown key'],
    ['the raw state the handler wrote', () => 'asked:DELETE FROM t', 'malformed'],
    ['an empty string', () => '', 'malformed'],
    ['the SDK codec form without the key id', (s: string) => s.replace('m1.k1.', ''), 'malformed'],
  ])('refuses %s with -32602 before the handler runs', async (_name, tamper, reason) => {
    const { handler, seen } = server(new RequestStateKeyRing([K1]));
    const state = await firstRound(handler);
    seen.length = 0;
    const retry = await call(handler, ARGS, { requestState: tamper(state), ...CONFIRM });
    expect(retry.error).toEqual({ code: -32602, message: `Invalid requestState (${reason})` });
    expect(seen).toEqual([]);
  });

  it('refuses state minted for other arguments or another instance key', async () => {
    const { handler, seen } = server(new RequestStateKeyRing([K1]));
    const state = await firstRound(handler, { region: 'eu-west1', query: 'DELETE FROM a' });
    seen.length = 0;
    const other = await call(handler, { region: 'eu-west1', query: 'DELETE FROM b' }, { requestState: state, ...CONFIRM });
    expect(other.error).toEqual({ code: -32602, message: 'Invalid requestState (issued for another request)' });
    const foreign = server(new RequestStateKeyRing([{ id: 'k1', secret: 'another-secret-of-at-least-32-bytes' }]));
    const forged = await call(foreign.handler, { region: 'eu-west1', query: 'DELETE FROM a' }, { requestState: state, ...CONFIRM });
    expect(forged.error?.code).toBe(-32602);
    expect([...seen, ...foreign.seen]).toEqual([]);
  });

  it('binds the state to the tool: a prompt or another tool cannot replay it', async () => {
    const { bindingOf } = await import('../../packages/runtime/src/server/scale/request-state.js');
    const ring = new RequestStateKeyRing([K1]);
    const sealed = await ring.seal('s', bindingOf('tools/call', 'execute_sql', ARGS));
    const ctx = {} as never;
    await expect(ring.open(sealed, bindingOf('tools/call', 'list_tables', ARGS), ctx)).rejects.toThrow('issued for another request');
    await expect(ring.open(sealed, bindingOf('prompts/get', 'execute_sql', ARGS), ctx)).rejects.toThrow('issued for another request');
    // Key order in the arguments does not matter: the same arguments bind the same way.
    await expect(ring.open(sealed, bindingOf('tools/call', 'execute_sql', { query: ARGS.query, region: ARGS.region }), ctx)).resolves.toBe('s');
  });

  it('refuses expired state', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { handler } = server(new RequestStateKeyRing([K1], 60));
      const state = await firstRound(handler);
      vi.setSystemTime(Date.now() + 61_000);
      const retry = await call(handler, ARGS, { requestState: state, ...CONFIRM });
      expect(retry.error).toEqual({ code: -32602, message: 'Invalid requestState (expired)' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('rotates keys without dropping a request in flight: add, promote, retire', async () => {
    const ring = new RequestStateKeyRing([K1]);
    const { handler } = server(ring);
    const byOld = await firstRound(handler);
    ring.setKeys([K1, K2]); // step 1: the new key verifies everywhere; the old one still signs
    expect(await firstRound(handler)).toMatch(/^m1\.k1\./);
    ring.setKeys([K2, K1]); // step 2: the new key signs, the old one still verifies
    const byNew = await firstRound(handler);
    expect(byNew).toMatch(/^m1\.k2\./);
    expect((await call(handler, ARGS, { requestState: byOld, ...CONFIRM })).result?.structuredContent).toBeDefined();
    ring.setKeys([K2]); // step 3, after the TTL: the old key is gone
    expect((await call(handler, ARGS, { requestState: byNew, ...CONFIRM })).result?.structuredContent).toBeDefined();
    expect((await call(handler, ARGS, { requestState: byOld, ...CONFIRM })).error).toEqual({ code: -32602, message: 'Invalid requestState (unknown key)' });
  });

  it('refuses short keys, duplicate ids and bad ids at start-up', () => {
    expect(() => new RequestStateKeyRing([{ id: 'k1', secret: 'x'.repeat(31) }])).toThrow('requestState key "k1" has 31 bytes; at least 32 are required');
    expect(() => new RequestStateKeyRing([K1, { ...K2, id: 'k1' }])).toThrow('listed twice');
    expect(() => new RequestStateKeyRing([{ id: 'a.b', secret: K1.secret }])).toThrow('must be 1-64 letters');
    expect(() => new RequestStateKeyRing([])).toThrow('at least one key');
  });

  it('reads keys and TTL from the environment the generated main.ts passes', async () => {
    const options = await readOptions('sql', { MCPGEN_REQUEST_STATE_KEYS: `k2:${K2.secret}, k1:${K1.secret}`, MCPGEN_REQUEST_STATE_TTL_SECONDS: '30' });
    const ring = options.requestStateKeys as RequestStateKeyRing;
    expect(ring.ttlSeconds).toBe(30);
    expect(await ring.seal('x', 'b')).toMatch(/^m1\.k2\./);
    expect(options.bus).toBeUndefined();
    await expect(readOptions('sql', { MCPGEN_REQUEST_STATE_KEYS: 'k1:short' })).rejects.toThrow('at least 32 are required');
    await expect(readOptions('sql', { MCPGEN_REQUEST_STATE_KEYS: 'no-colon-here-and-it-is-a-secret' })).rejects.toThrow('entry 1 is not id:secret');
  });
});
