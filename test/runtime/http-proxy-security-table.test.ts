// The proxy holds the API's credentials and sends requests a model chose the arguments of: a table of
// hostile arguments and upstream answers, each called through the official client against a server on
// 127.0.0.1 whose tools are proxied to an upstream on 127.0.0.1. Path arguments never leave their
// segment (dot-segments are refused: every URL normaliser would resolve them, percent-encoded or not),
// `?#`, encoded slashes and CRLF stay data, a header argument no header can carry is refused with a
// reason, credentials of every kind stay with the configured origin across redirects, and an answer past
// the bound is a tool error. (An upstream that never answers: test/interop/proxy-silent-upstream.test.ts.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpgenServer, httpProxy, type HttpAuth, type HttpBinding, type HttpProxyOptions, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream, type UpstreamRequest } from '../support/mock-upstream.js';

type Result = { isError?: boolean; content: { type: string; text?: string }[] };
const str = { type: 'string' };
const BINDINGS: Record<string, HttpBinding> = {
  getFile: { method: 'GET', path: '/file/{fileId}', params: [{ arg: 'fileId', name: 'fileId', in: 'path' }], output: false },
  search: { method: 'GET', path: '/search', params: [{ arg: 'q', name: 'q', in: 'query' }], output: false },
  tagged: { method: 'GET', path: '/tagged', params: [{ arg: 'tag', name: 'x-tag', in: 'header' }], output: false },
  session: { method: 'GET', path: '/session', params: [{ arg: 'sid', name: 'sid', in: 'cookie' }], output: false },
  moved: { method: 'GET', path: '/moved', params: [], output: false },
};
const ARG: Record<string, string | undefined> = { getFile: 'fileId', search: 'q', tagged: 'tag', session: 'sid', moved: undefined };
const definition: ServerDefinition = {
  info: { name: 'proxy-security', version: '1.0.0' },
  capabilities: { tools: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: Object.keys(BINDINGS).map((name) => {
    const arg = ARG[name];
    const inputSchema = arg === undefined ? { type: 'object' } : { type: 'object', properties: { [arg]: str }, required: [arg] };
    return { definition: { name, inputSchema }, method: name, headers: [], elicit: {} };
  }) as ServerDefinition['tools'],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

let upstream: MockUpstream;
let sameHostOther: MockUpstream; // 127.0.0.1, another port: another origin
let otherHost: Server; // 127.0.0.2: another host
let otherHostUrl: string;
const otherHostSeen: UpstreamRequest[] = [];
const running: { close(ms?: number): Promise<void> }[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream();
  sameHostOther = await startMockUpstream((_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('landed'));
  otherHost = createServer((req, res) => {
    otherHostSeen.push({ method: req.method!, url: new URL(req.url!, 'http://other'), headers: req.headers, body: Buffer.alloc(0) });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
  });
  await new Promise<void>((r) => otherHost.listen(0, '127.0.0.2', r));
  otherHostUrl = `http://127.0.0.2:${(otherHost.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const r of running) await r.close(500);
  await upstream.stop();
  await sameHostOther.stop();
  await new Promise<void>((r) => otherHost.close(() => r()));
});

/** A server proxying to the upstream with these options, and the official client connected to it. */
async function serve(options: Partial<HttpProxyOptions> = {}, requestInit?: RequestInit): Promise<Client> {
  const handlers = httpProxy<Record<string, never>>(BINDINGS as never, { baseUrl: upstream.url, retries: 0, ...options });
  const server = await createMcpgenServer(definition, handlers as never, { toolTimeoutMs: 60_000 }).listen({ port: 0 });
  running.push(server);
  const client = new Client({ name: 'security-table', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), requestInit !== undefined ? { requestInit } : undefined));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
const textOf = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');

describe('hostile arguments', () => {
  let client: Client;
  beforeAll(async () => (client = await serve()));

  // refused: a tool error naming the argument, and no request reaches the upstream.
  // kept: the upstream receives the value as data in its own place (one path segment, one query value, …).
  const ROWS: [string, string, string, 'refused' | 'kept'][] = [
    ['path', 'getFile', '.', 'refused'],
    ['path', 'getFile', '..', 'refused'],
    ['path', 'getFile', '%2e%2e', 'refused'],
    ['path', 'getFile', '%2E.', 'refused'],
    ['path', 'getFile', '.%2E', 'refused'],
    ['path', 'getFile', '%2e', 'refused'],
    ['path', 'getFile', '%252e%252e', 'refused'],
    ['path', 'getFile', '../admin', 'refused'],
    ['path', 'getFile', '..%2Fadmin', 'refused'],
    ['path', 'getFile', 'a\\..\\..\\admin', 'refused'],
    ['path', 'getFile', '', 'refused'],
    ['path', 'getFile', 'a/b', 'kept'],
    ['path', 'getFile', 'a%2Fb', 'kept'],
    ['path', 'getFile', '...', 'kept'],
    ['path', 'getFile', 'report.v2.pdf', 'kept'],
    ['path', 'getFile', 'x?y=1#frag', 'kept'],
    ['path', 'getFile', 'a\r\nX-Injected: 1', 'kept'],
    ['query', 'search', 'a&b=c?#d', 'kept'],
    ['query', 'search', '..', 'kept'],
    ['query', 'search', 'a\r\nX-Injected: 1', 'kept'],
    ['header', 'tagged', 'a?#b', 'kept'],
    ['header', 'tagged', 'a\r\nX-Injected: 1', 'refused'],
    ['header', 'tagged', 'a\nb', 'refused'],
    ['header', 'tagged', 'a\0b', 'refused'],
    ['cookie', 'session', 'a; admin=1', 'kept'],
    ['cookie', 'session', 'a\r\nX-Injected: 1', 'kept'],
  ];

  it.each(ROWS)('%s argument %s(%j): %s', async (_where, tool, value, outcome) => {
    upstream.reply = (_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    const before = upstream.requests.length;
    const arg = ARG[tool]!;
    const result = await call(client, tool, { [arg]: value });
    if (outcome === 'refused') {
      expect(result.isError).toBe(true);
      // A reason the model can act on: which argument, and why.
      expect(textOf(result)).toMatch(new RegExp(`argument ${arg}\\b.*: .{10,}`));
      expect(upstream.requests.length).toBe(before);
      return;
    }
    expect(result.isError, textOf(result)).not.toBe(true);
    expect(upstream.requests.length).toBe(before + 1);
    const seen = upstream.requests.at(-1)!;
    expect(seen.headers['x-injected']).toBeUndefined();
    if (tool === 'getFile') {
      const segments = seen.url.pathname.split('/');
      expect(segments.slice(0, 2)).toEqual(['', 'file']);
      expect(segments).toHaveLength(3);
      expect(decodeURIComponent(segments[2]!)).toBe(value);
    } else if (tool === 'search') {
      expect([...seen.url.searchParams]).toEqual([['q', value]]);
    } else if (tool === 'tagged') {
      expect(seen.headers['x-tag']).toBe(value);
    } else {
      const cookie = String(seen.headers.cookie);
      expect(cookie.split('; ')).toHaveLength(1);
      expect(decodeURIComponent(cookie.slice('sid='.length))).toBe(value);
    }
  });
});

describe('credentials stay with the configured origin across redirects', () => {
  const KINDS: [string, HttpAuth, Record<string, string>, (r: UpstreamRequest) => boolean][] = [
    ['apiKey in a header', { type: 'apiKey', in: 'header', name: 'X-Api-Key', env: 'K' }, { K: 'secret-1' }, (r) => r.headers['x-api-key'] === 'secret-1'],
    ['apiKey in the query', { type: 'apiKey', in: 'query', name: 'api_key', env: 'K' }, { K: 'secret-1' }, (r) => r.url.searchParams.get('api_key') === 'secret-1'],
    ['apiKey in a cookie', { type: 'apiKey', in: 'cookie', name: 'token', env: 'K' }, { K: 'secret-1' }, (r) => String(r.headers.cookie ?? '').includes('secret-1')],
    ['bearer', { type: 'bearer', env: 'K' }, { K: 'secret-1' }, (r) => r.headers.authorization === 'Bearer secret-1'],
    ['basic', { type: 'basic', env: 'K' }, { K: 'user:secret-1' }, (r) => r.headers.authorization === `Basic ${Buffer.from('user:secret-1').toString('base64')}`],
    ['OAuth client credentials', { type: 'oauth2', tokenUrl: 'set below', env: 'K' }, { K_CLIENT_ID: 'id', K_CLIENT_SECRET: 'cs' }, (r) => r.headers.authorization === 'Bearer secret-1'],
  ];
  const TRANSPORTS: [string, Partial<HttpProxyOptions>][] = [
    ['node:http', {}],
    ['fetch', { fetch: (input, init) => fetch(input, init) }],
  ];
  // The upstream redirects /moved (keeping the query, as a careless upstream would) and answers /token.
  const redirecting = (to: () => string) => (req: UpstreamRequest, _i: number, res: import('node:http').ServerResponse) => {
    if (req.url.pathname === '/token') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"secret-1","expires_in":3600}');
    if (req.url.pathname === '/moved') return void res.writeHead(302, { location: `${to()}/landing${req.url.search}` }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
  };
  const leaks = (r: UpstreamRequest) => JSON.stringify({ ...r.headers, url: r.url.href }).includes('secret-1') || JSON.stringify(r.headers).includes(Buffer.from('user:secret-1').toString('base64'));

  for (const [transport, transportOptions] of TRANSPORTS) {
    for (const [kind, scheme, env, carries] of KINDS) {
      it(`${kind} over ${transport}: kept on a same-origin redirect, dropped on one to another origin or host`, async () => {
        const auth = scheme.type === 'oauth2' ? { ...scheme, tokenUrl: `${upstream.url}/token` } : scheme;
        const client = await serve({ ...transportOptions, auth: [auth], env });
        // Same origin: the credential goes along (what shows the check below can fail).
        upstream.reply = redirecting(() => upstream.url);
        expect(textOf(await call(client, 'moved'))).toBe('landed');
        expect(carries(upstream.requests.at(-1)!)).toBe(true);
        for (const [where, to, seen] of [['another origin', () => sameHostOther.url, () => sameHostOther.requests], ['another host', () => otherHostUrl, () => otherHostSeen]] as const) {
          upstream.reply = redirecting(to);
          const before = seen().length;
          expect(textOf(await call(client, 'moved')), where).toBe('landed');
          expect(seen().length, where).toBe(before + 1);
          expect(leaks(seen().at(-1)!), `${where}: ${JSON.stringify(seen().at(-1)!.headers)} ${seen().at(-1)!.url.href}`).toBe(false);
        }
      });
    }
  }

  it("the MCP caller's own token never reaches the upstream", async () => {
    const client = await serve({}, { headers: { authorization: 'Bearer caller-token' } });
    upstream.reply = (_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    await call(client, 'search', { q: 'x' });
    expect(upstream.requests.at(-1)!.headers.authorization).toBeUndefined();
  });
});

describe('answers', () => {
  it('a 50 MB answer is a tool error past the 8 MiB bound, on both transports', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    upstream.reply = (_r, _i, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const more = (): void => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    };
    for (const options of [{}, { fetch: ((input, init) => fetch(input, init)) satisfies typeof fetch }]) {
      const client = await serve(options);
      const result = await call(client, 'moved');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/over the 8388608-byte bound/);
    }
  });
});
