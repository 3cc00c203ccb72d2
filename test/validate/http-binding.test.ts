// `http:` and `upstream:` beyond the one-fixture-per-rule cases: what is accepted, how `upstream:` merges
// over includes (the root wins without a word), and shapes the schema refuses with a position, not a throw.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const HEAD = 'mcpgen: 1\nserver: { name: pets, version: 1.0.0 }\n';
const TOOL = `tools:
  - name: getPet
    input: { type: object, properties: { petId: { type: integer }, q: { type: string }, pet: { type: object } }, required: [petId] }
    http: { method: GET, path: "/pets/{petId}", params: { petId: path, q: { in: query, name: query, style: form, explode: false } }, body: pet, security: [key] }
`;

describe('http: bindings and upstream:', () => {
  it('a complete binding checks clean, and the model carries it', () => {
    const r = checkText(`${HEAD}upstream:\n  baseUrl: https://pets.example.com/v1\n  security: { key: { type: apiKey, in: query, name: api_key } }\n${TOOL}`);
    expect(r.diagnostics).toEqual([]);
    const model = r.models[0]!;
    expect(model.tools[0]!.http).toEqual({ method: 'GET', path: '/pets/{petId}', params: [{ arg: 'petId', in: 'path', name: 'petId' }, { arg: 'q', in: 'query', name: 'query', style: 'form', explode: false }], body: { arg: 'pet', contentType: 'application/json' }, security: ['key'] });
    expect(model.upstream).toEqual({ baseUrl: 'https://pets.example.com/v1', baseUrlEnv: 'PETS_BASE_URL', schemes: [{ id: 'key', auth: { type: 'apiKey', in: 'query', name: 'api_key', env: 'PETS_KEY' } }] });
  });

  it('upstream: in an included file counts; the root spec overrides it without a word', () => {
    const inc = 'upstream:\n  baseUrl: https://import.example.com\n  timeoutMs: 5000\n  security: { key: { type: bearer } }\n';
    const r = checkText(`${HEAD}include: [api.yaml]\nupstream: { baseUrl: https://team.example.com }\n${TOOL}`, { 'api.yaml': inc });
    expect(r.diagnostics).toEqual([]);
    expect(r.models[0]!.upstream).toMatchObject({ baseUrl: 'https://team.example.com', timeoutMs: 5000, schemes: [{ id: 'key', auth: { type: 'bearer', env: 'PETS_KEY' } }] });
  });

  it('two schemes on one environment variable: MCPG134', () => {
    const r = checkText(`${HEAD}upstream:\n  baseUrl: https://pets.example.com\n  security:\n    api-key: { type: bearer }\n    api_key: { type: basic }\n${TOOL.replace('security: [key]', 'security: [api_key]')}`);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([['MCPG134', 7, 'upstream.security "api_key" reads its secret from PETS_API_KEY, as "api-key" does; give one of them its own `env`']]);
  });

  it('a method outside the list, a param location or a body of the wrong shape: format errors at their place', () => {
    const r = checkText(`${HEAD}upstream: { baseUrl: https://pets.example.com }\ntools:\n  - name: t\n    input: { type: object, properties: { a: { type: string } } }\n    http: { method: get, path: /x, params: { a: body }, body: 7 }\n`);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual(expect.arrayContaining([['MCPG006', 'tools[0].http.method']]));
    expect(r.diagnostics.every((d) => d.line === 7)).toBe(true);
    expect(r.models).toHaveLength(0);
  });

  // OpenAPI 3 `content: {application/json: …}` on a query parameter (rudder.example.local): one JSON text.
  it('contentType on a query param is carried to the model; on a header, or beside style: MCPG135', () => {
    const tool = (param: string) => `tools:\n  - name: t\n    input: { type: object, properties: { f: { type: object } } }\n    http: { method: GET, path: /x, params: { f: ${param} } }\n`;
    const ok = checkText(`${HEAD}upstream: { baseUrl: https://pets.example.com }\n${tool('{ in: query, contentType: application/json }')}`);
    expect(ok.diagnostics).toEqual([]);
    expect(ok.models[0]!.tools[0]!.http!.params).toEqual([{ arg: 'f', in: 'query', name: 'f', contentType: 'application/json' }]);
    const header = checkText(`${HEAD}upstream: { baseUrl: https://pets.example.com }\n${tool('{ in: header, contentType: application/json }')}`);
    expect(header.diagnostics.map((d) => [d.code, d.path])).toEqual([['MCPG135', 'tools[0].http.params.f.contentType']]);
    const styled = checkText(`${HEAD}upstream: { baseUrl: https://pets.example.com }\n${tool('{ in: query, contentType: application/json, style: deepObject }')}`);
    expect(styled.diagnostics.map((d) => [d.code, d.path])).toEqual([['MCPG135', 'tools[0].http.params.f.style']]);
  });

  it('files on a JSON body and a file field the body does not have: MCPG135, MCPG115', () => {
    const r = checkText(`${HEAD}upstream: { baseUrl: https://pets.example.com }\ntools:\n  - name: t\n    input: { type: object, properties: { b: { type: object, properties: { f: { type: string } } } } }\n    http: { method: POST, path: /x, body: { property: b, files: [g] } }\n`);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['MCPG135', 'MCPG115']);
  });
});
