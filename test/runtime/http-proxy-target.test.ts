// Where the node:http transport sends a proxied request without parsing every URL (http-target.ts): the same
// scheme, host, port, credentials and request target as node's urlToHttpOptions(new URL(url)), and on the
// wire the same request target as fetch sends, for path and query values the URL parser rewrites (dot
// segments, spaces, quotes, non-ASCII) and for those it keeps.
import { urlToHttpOptions } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../packages/runtime/src/server/extensions/http-target.js';
import { callUpstream, type HttpBinding, type HttpProxyOptions } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

const URLS = [
  'http://127.0.0.1:8080/pet/1',
  'http://127.0.0.1:8080/v2/pet/1?status=available&tags=a%2Cb',
  'https://api.example.com/things/a%20b?q=x+y',
  'http://[::1]:3000/pet/1',
  'http://Example.COM:80/pet/1',
  'http://user:p%40ss@example.com/x',
  'http://example.com/a/../b/./c',
  'http://example.com/a/%2e%2E/b',
  'http://example.com/a b/"c"/<d>',
  'http://example.com/p?',
  "http://example.com/p?q='x'",
  'http://example.com/p#frag',
  'http://example.com/p\\q',
  'http://example.com/ü?ü=1',
  'http://example.com//double//slash',
  'http://example.com:443/x',
  'https://example.com:443/x',
];

describe('targetOf', () => {
  it.each(URLS)('%s: what urlToHttpOptions gives', (url) => {
    const expected = urlToHttpOptions(new URL(url));
    // Twice: the second call answers from the remembered origin.
    for (let i = 0; i < 2; i++) {
      const got = targetOf(url);
      expect({ protocol: got.protocol, hostname: got.hostname, port: got.port, path: got.path, auth: got.auth }).toEqual({
        protocol: expected.protocol,
        hostname: expected.hostname,
        port: expected.port,
        path: expected.path,
        auth: expected.auth,
      });
    }
  });

  it('origins of the same length, called in turn, each keep their own host and port', () => {
    for (const url of ['http://a.test:1000/x', 'http://b.test:2000/x', 'http://a.test:1000/x', 'http://b.test:2000/x', 'http://a.test:10000/x']) {
      const got = targetOf(url);
      const expected = urlToHttpOptions(new URL(url));
      expect([got.hostname, got.port, got.path]).toEqual([expected.hostname, expected.port, expected.path]);
    }
  });
});

let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream((_r, _i, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(res.req.url));
});
afterAll(() => upstream.stop());

/** node:http (no `fetch` option), then fetch. */
const TRANSPORTS: Partial<HttpProxyOptions>[] = [{}, { fetch: (input, init) => fetch(input, init) }];

const binding: HttpBinding = {
  method: 'GET',
  path: '/pets/{id}',
  params: [
    { arg: 'id', in: 'path', name: 'id' },
    { arg: 'q', in: 'query', name: 'q' },
  ],
  output: false,
};

describe('the request target on the wire', () => {
  it.each(['1', '..', '.', 'a b', '%2e', "it's", 'ü', 'a/b', 'x?y#z'])('path value %j, over node:http as over fetch', async (id) => {
    const targets: unknown[] = [];
    for (const fetchOption of TRANSPORTS) {
      const result = (await callUpstream(binding, { id, q: `${id}'"` }, { baseUrl: `${upstream.url}/base/`, retries: 0, ...fetchOption })) as unknown as { content: { text: string }[] };
      targets.push(result.content[0]!.text);
    }
    expect(targets[0]).toBe(targets[1]);
  });
});

describe('headers built without a Headers object (node:http)', () => {
  it('values trimmed, names case-insensitive, a credential replacing an argument: as over fetch', async () => {
    const withHeaders: HttpBinding = {
      method: 'GET',
      path: '/h',
      params: [
        { arg: 'trace', in: 'header', name: 'X-Trace' },
        { arg: 'key', in: 'header', name: 'X-Key' },
      ],
      output: false,
    };
    const seen: unknown[] = [];
    for (const fetchOption of TRANSPORTS) {
      const before = upstream.requests.length;
      await callUpstream(withHeaders, { trace: ' \t a  b \r\n', key: 'from-the-model' }, { baseUrl: upstream.url, retries: 0, auth: [{ type: 'apiKey', in: 'header', name: 'x-key', env: 'K' }], env: { K: 'secret' }, ...fetchOption });
      const { headers } = upstream.requests[before]!;
      seen.push({ trace: headers['x-trace'], key: headers['x-key'] });
    }
    expect(seen[0]).toEqual({ trace: 'a  b', key: 'secret' });
    expect(seen[1]).toEqual(seen[0]);
  });
});
