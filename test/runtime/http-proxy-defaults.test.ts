// A proxied call goes to the upstream as the client sent it: the input schema's defaults, which the
// server fills in for hand-written handlers, are not added to the forwarded body or query (dev.to's
// `POST /api/pages` with `{}` went out as `{"template":"contained"}`; the upstream applies its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpgenServer, httpProxy, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { mcpRequest, PROTOCOL_META } from '../support/mcp-request.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => (upstream = await startMockUpstream((_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'))));
afterAll(() => upstream.stop());

const inputSchema = {
  type: 'object',
  properties: { limit: { type: 'integer', default: 20 }, body: { type: 'object', properties: { template: { type: 'string', default: 'contained' } } } },
};
const definition = {
  info: { name: 'pages', version: '1.0.0' },
  capabilities: { tools: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [
    { definition: { name: 'create_page', inputSchema }, method: 'createPage', headers: [], elicit: {} },
    { definition: { name: 'own_page', inputSchema }, method: 'ownPage', headers: [], elicit: {} },
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [],
} as unknown as ServerDefinition;

describe('defaults and the proxy', () => {
  it('the proxy forwards the arguments as sent; a hand-written handler still gets the defaults', async () => {
    let own: unknown;
    const proxy = httpProxy<{ createPage: never }>({ createPage: { method: 'POST', path: '/api/pages', params: [{ arg: 'limit', name: 'limit', in: 'query' }], body: { arg: 'body', contentType: 'application/json' }, output: false } }, { baseUrl: upstream.url, retries: 0 });
    const handler = createMcpgenServer(definition, { ...proxy, ownPage: (args: unknown) => ((own = args), { content: [] }) } as never).http();
    for (const name of ['create_page', 'own_page']) await (await handler.fetch(mcpRequest('tools/call', { name, arguments: { body: {} }, _meta: PROTOCOL_META }, { name }))).text();
    const sent = upstream.requests.at(-1)!;
    expect(sent.body.toString()).toBe('{}');
    expect(sent.url.search).toBe('');
    expect(own).toEqual({ limit: 20, body: { template: 'contained' } });
  });
});
