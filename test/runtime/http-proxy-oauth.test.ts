// OAuth 2 client credentials for the upstream, with a token endpoint (FakeAuthorizationServer) and a
// protected upstream both on 127.0.0.1: the token is fetched once and cached until it expires, fetched
// again once after a 401, and the MCP caller's own token never reaches the upstream — unless the team's
// `upstreamToken` hook (the place for an RFC 8693 exchange) says which token to send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpProxy, type HttpAuth, type HttpBinding, type UpstreamTokenRequest } from '../../packages/runtime/src/server/index.js';
import { FakeAuthorizationServer } from '../support/fake-oauth.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let as: FakeAuthorizationServer;
let upstream: MockUpstream;
beforeAll(async () => {
  as = await new FakeAuthorizationServer({ clients: { svc: 's3cret' }, scopes: ['pets.read'] }).start();
  upstream = await startMockUpstream((req, _i, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const issued = token === undefined ? undefined : as.tokens.get(token);
    if (issued === undefined || issued.expiresAt <= Date.now()) return void res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${issued.scopes.join(' ')}`);
  });
});
afterAll(async () => {
  await upstream.stop();
  await as.stop();
});

const scheme: HttpAuth = { type: 'oauth2', tokenUrl: '/set-by-env', env: 'PETS_OAUTH' };
const bindings = { listPets: { method: 'POST', path: '/pets', params: [], output: false } satisfies HttpBinding };
type Result = { isError?: boolean; content: { text: string }[] };
type Call = (args: object, ctx: object) => Promise<Result>;
const env = () => ({ PETS_OAUTH_CLIENT_ID: 'svc', PETS_OAUTH_CLIENT_SECRET: 's3cret', PETS_OAUTH_TOKEN_URL: `${as.issuer}/token`, PETS_OAUTH_SCOPE: 'pets.read' });

describe('OAuth 2 client credentials', () => {
  it('one token request for many calls; after the token expires (401) one new token and the call is sent again', async () => {
    const proxy = httpProxy<{ listPets: Call }>(bindings, { baseUrl: upstream.url, auth: [scheme], env: env() });
    const caller = new Request('http://mcp/mcp', { headers: { authorization: 'Bearer caller-token' } });
    for (let i = 0; i < 3; i++) expect((await proxy.listPets({}, { httpRequest: caller })).content[0]!.text).toBe('hello pets.read');
    expect(as.at('/token')).toHaveLength(1);
    expect(as.at('/token')[0]!.params).toEqual({ grant_type: 'client_credentials', scope: 'pets.read' });
    expect(as.at('/token')[0]!.authorization).toBe(`Basic ${Buffer.from('svc:s3cret').toString('base64')}`);
    as.expireAll();
    const before = upstream.requests.length;
    const r = await proxy.listPets({}, {});
    expect(r.isError).toBeFalsy();
    expect(as.at('/token')).toHaveLength(2);
    expect(upstream.requests.length - before).toBe(2); // the 401 and the POST sent again with the new token
    // The caller's token was never sent upstream.
    expect(upstream.requests.map((q) => q.headers.authorization)).not.toContain('Bearer caller-token');
  });

  it('a token endpoint that refuses the client: a tool error, nothing sent upstream', async () => {
    const proxy = httpProxy<{ listPets: Call }>(bindings, { baseUrl: upstream.url, auth: [scheme], env: { ...env(), PETS_OAUTH_CLIENT_SECRET: 'wrong' } });
    const before = upstream.requests.length;
    const r = await proxy.listPets({}, {});
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toBe('upstream credentials for POST /pets could not be obtained: token endpoint answered 401 (invalid_client)');
    expect(upstream.requests.length).toBe(before);
  });

  it('the upstreamToken hook: told the caller and the operation, its token is sent (RFC 8693 exchange goes there)', async () => {
    const asked: UpstreamTokenRequest[] = [];
    const proxy = httpProxy<{ listPets: Call }>(bindings, {
      baseUrl: upstream.url,
      auth: [scheme],
      env: env(),
      upstreamToken: (request) => {
        asked.push(request);
        return [...as.tokens.keys()].at(-1); // stands in for the token an exchange would return
      },
    });
    const tokensBefore = as.at('/token').length;
    const caller = new Request('http://mcp/mcp', { headers: { authorization: 'Bearer caller-token' } });
    expect((await proxy.listPets({}, { httpRequest: caller })).isError).toBeFalsy();
    expect(asked).toEqual([{ scheme, operation: { method: 'POST', path: '/pets' }, caller: { token: 'caller-token' }, refresh: false }]);
    expect(as.at('/token')).toHaveLength(tokensBefore);
  });
});
