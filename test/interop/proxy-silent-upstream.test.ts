// An upstream that accepts the connection and never answers, with every default as a generated server has
// it (30 s per attempt, 2 retries for a GET, the entry point's 60 s tool timeout): the official client,
// with its default 60 s request timeout, gets the proxy's tool error — the retry budget (45 s) ends first —
// instead of giving up on the request. Real time: ~45 s.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpgenServer, httpProxy, type ServerDefinition } from '../../packages/runtime/src/server/index.js';

const sockets: Socket[] = [];
const silent = createServer((s) => void sockets.push(s));
let upstreamUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});

const definition: ServerDefinition = {
  info: { name: 'silent', version: '1.0.0' },
  capabilities: { tools: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [{ definition: { name: 'list_things', inputSchema: { type: 'object' } }, method: 'listThings', headers: [], elicit: {} }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

it('the tool error reaches the official client before its default request timeout', async () => {
  const handlers = httpProxy<{ listThings: never }>({ listThings: { method: 'GET', path: '/things', params: [], output: false } }, { baseUrl: upstreamUrl });
  const server = await createMcpgenServer(definition, handlers as never, { toolTimeoutMs: 60_000 }).listen({ port: 0 });
  const client = new Client({ name: 'silent-upstream', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const started = Date.now();
    const result = (await client.callTool({ name: 'list_things', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^upstream GET \/things failed: timed out after \d+ ms$/);
    expect(Date.now() - started).toBeLessThan(55_000);
    expect(sockets.length).toBeGreaterThanOrEqual(2); // it did retry within the budget
  } finally {
    await client.close();
    await server.close(500);
  }
}, 90_000);
