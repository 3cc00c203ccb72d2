// Query styles of proxied calls, read back from the request an upstream on 127.0.0.1 received: form
// (exploded and not), spaceDelimited, pipeDelimited and deepObject, per OpenAPI 3.1 §4.8.12.4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, type HttpParamBinding } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => (upstream = await startMockUpstream()));
afterAll(() => upstream.stop());

/** The raw query string the upstream received for one call with `value` in parameter `p`. */
async function sent(p: Omit<HttpParamBinding, 'arg' | 'in'>, value: unknown): Promise<string> {
  const before = upstream.requests.length;
  await callUpstream({ method: 'GET', path: '/items', params: [{ arg: 'v', in: 'query', ...p }], output: false }, { v: value }, { baseUrl: upstream.url });
  expect(upstream.requests.length).toBe(before + 1);
  return upstream.requests.at(-1)!.url.search;
}

const list = ['blue', 'black', 'brown'];
const point = { R: 100, G: 200, B: 150 };

describe('query styles', () => {
  it('form, exploded (the default): one key per item; an object: one key per property', async () => {
    expect(await sent({ name: 'color' }, list)).toBe('?color=blue&color=black&color=brown');
    expect(await sent({ name: 'color', style: 'form', explode: true }, point)).toBe('?R=100&G=200&B=150');
    expect(await sent({ name: 'color' }, 'blue')).toBe('?color=blue');
  });

  it('form, explode false: comma-joined items and key,value pairs', async () => {
    expect(await sent({ name: 'color', style: 'form', explode: false }, list)).toBe('?color=blue%2Cblack%2Cbrown');
    expect(await sent({ name: 'color', explode: false }, point)).toBe('?color=R%2C100%2CG%2C200%2CB%2C150');
  });

  it('spaceDelimited and pipeDelimited (not exploded by default)', async () => {
    const space = await sent({ name: 'color', style: 'spaceDelimited' }, list);
    expect(new URLSearchParams(space).getAll('color')).toEqual(['blue black brown']);
    expect(await sent({ name: 'color', style: 'pipeDelimited' }, list)).toBe('?color=blue%7Cblack%7Cbrown');
    expect(await sent({ name: 'color', style: 'pipeDelimited', explode: true }, list)).toBe('?color=blue&color=black&color=brown');
  });

  it('deepObject: name[key]=value, nested one bracket deeper', async () => {
    expect(await sent({ name: 'color', style: 'deepObject', explode: true }, point)).toBe('?color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150');
    const nested = new URLSearchParams(await sent({ name: 'filter', style: 'deepObject' }, { owner: { id: 7 }, tag: 'a b' }));
    expect([...nested]).toEqual([['filter[owner][id]', '7'], ['filter[tag]', 'a b']]);
  });

  // rudder.example.local's `include` and `where`: OpenAPI 3 `content: {application/json: …}` on a query parameter.
  it('contentType application/json: the value as one JSON text under its name', async () => {
    expect(new URLSearchParams(await sent({ name: 'include', contentType: 'application/json' }, { composition: 'and', select: 'node' })).getAll('include')).toEqual(['{"composition":"and","select":"node"}']);
    expect(new URLSearchParams(await sent({ name: 'where', contentType: 'application/json' }, [{ attribute: 'OS' }])).getAll('where')).toEqual(['[{"attribute":"OS"}]']);
    expect(new URLSearchParams(await sent({ name: 'q', contentType: 'application/json' }, 'x')).getAll('q')).toEqual(['"x"']);
  });

  it('a value the caller leaves out sends no key', async () => {
    expect(await sent({ name: 'color', style: 'pipeDelimited' }, undefined)).toBe('');
  });

  // freetv-app.com's path key `/services?funcs=GetLatestNewsForChatGPT`: the arguments went after a second `?`.
  it('a path with a query of its own gets the arguments after `&`', async () => {
    const before = upstream.requests.length;
    await callUpstream({ method: 'GET', path: '/services?funcs=GetNews', params: [{ arg: 'v', in: 'query', name: 'color' }], output: false }, { v: 'blue' }, { baseUrl: upstream.url });
    expect(upstream.requests.length).toBe(before + 1);
    expect(upstream.requests.at(-1)!.url.pathname).toBe('/services');
    expect(upstream.requests.at(-1)!.url.search).toBe('?funcs=GetNews&color=blue');
  });
});
