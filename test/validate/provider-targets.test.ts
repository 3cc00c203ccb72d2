// The provider table (issue 29 item 3): for each target, schemas that must pass and schemas that must be
// reported, by each provider's published rules (packages/runtime/src/shared/provider-rules.ts names the
// sources); the report agrees with what the bridge sends; strict mode round-trips through the dispatcher.
import { describe, expect, it } from 'vitest';
import { dispatchGeminiCalls, dispatchToolCalls, dispatchToolUses, fromGeminiArguments, toAnthropicTools, toGeminiFunctionDeclarations, toGeminiSchema, toOpenAiTools, toStrictSchema } from '@mcpgen/runtime-client';
import { GEMINI_PROPERTY_NAME } from '@mcpgen/runtime/shared/provider-rules';
import type { ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';
import { schemaFindings } from '../../src/validate/rules/provider-targets.js';
import type { JsonObjectSchema } from '../../src/validate/spec-types.js';

type Case = readonly [label: string, schema: JsonObjectSchema, findings: readonly string[]];

/** `effect path` per finding ("" = nothing reported: the provider takes the schema as it is). */
const TABLE: Readonly<Record<ProviderTarget, readonly Case[]>> = {
  'openai-strict': [
    ['closed, all required, supported keywords', { type: 'object', properties: { q: { type: 'string', pattern: '^a', format: 'email' }, n: { type: 'integer', minimum: 1, maximum: 9 }, tags: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['q', 'n', 'tags'], additionalProperties: false }, []],
    ['anyOf of closed objects, $defs', { type: 'object', properties: { v: { $ref: '#/$defs/V' } }, required: ['v'], additionalProperties: false, $defs: { V: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }, []],
    ['open object', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, ['changed ']],
    ['optional property', { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false }, ['changed /properties/q']],
    ['string lengths', { type: 'object', properties: { q: { type: 'string', minLength: 1, maxLength: 5 } }, required: ['q'], additionalProperties: false }, ['dropped /properties/q/minLength', 'dropped /properties/q/maxLength']],
    ['unknown format', { type: 'object', properties: { u: { type: 'string', format: 'uri' } }, required: ['u'], additionalProperties: false }, ['dropped /properties/u/format']],
    ['composition', { type: 'object', properties: { a: { type: 'integer', not: { const: 3 } }, b: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['a', 'b'], additionalProperties: false, allOf: [{ required: ['a'] }] }, ['dropped /allOf', 'dropped /properties/a/not', 'changed /properties/b/oneOf']],
    ['array keywords', { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'x' } } }, required: ['l'], additionalProperties: false }, ['dropped /properties/l/uniqueItems', 'dropped /properties/l/contains']],
    ['a map', { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'], additionalProperties: false }, ['refused /properties/m/additionalProperties']],
  ],
  anthropic: [
    ['plain object', { type: 'object', properties: { q: { type: 'string', minLength: 1, format: 'uri' }, m: { type: 'object', additionalProperties: { type: 'string' } } } }, []],
    ['anyOf below the root', { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, w: { oneOf: [{ type: 'string' }, { type: 'null' }] } } }, []],
    ['root anyOf', { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' } }, anyOf: [{ required: ['id'] }, { required: ['email'] }] }, ['dropped /anyOf']],
    ['root oneOf and allOf', { type: 'object', properties: { a: { type: 'string' } }, oneOf: [{ required: ['a'] }, { required: [] }], allOf: [{ required: ['a'] }] }, ['dropped /oneOf', 'dropped /allOf']],
  ],
  gemini: [
    ['OpenAPI subset', { type: 'object', properties: { q: { type: 'string', format: 'date-time', minLength: 1, maxLength: 9, pattern: '^a' }, n: { type: 'number', minimum: 0, maximum: 1 }, e: { type: 'string', enum: ['a', 'b'] }, l: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 } }, required: ['q'] }, []],
    ['anyOf and descriptions', { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'either', title: 'V' } } }, []],
    ['$ref and const', { type: 'object', properties: { u: { $ref: '#/$defs/U' } }, $defs: { U: { const: 'c' } } }, ['changed /properties/u/$ref', 'changed /$defs/U/const']],
    ['type list', { type: 'object', properties: { n: { type: ['string', 'null'] } } }, ['changed /properties/n/type']],
    ['closed object, bounds', { type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 0, multipleOf: 2 } }, additionalProperties: false }, ['dropped /additionalProperties', 'dropped /properties/n/exclusiveMinimum', 'dropped /properties/n/multipleOf']],
    ['composition', { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, b: { type: 'string', not: { const: 'x' } } }, allOf: [{ required: ['a'] }] }, ['changed /allOf', 'changed /properties/a/oneOf', 'dropped /properties/b/not']],
    ['parameter names', { type: 'object', properties: { 'user-id': { type: 'string' }, '1st': { type: 'string' }, ok_name: { type: 'string' } } }, ['changed /properties/user-id', 'changed /properties/1st']],
    ['parameter names that clean to a taken one, nested', { type: 'object', properties: { user_id: { type: 'string' }, 'user-id': { type: 'object', properties: { 'a.b': { type: 'string' } } } } }, ['changed /properties/user-id', 'changed /properties/user-id/properties/a.b']],
  ],
};

const pointer = (path: readonly (string | number)[]) => (path.length === 0 ? '' : `/${path.join('/')}`);

describe('the provider table: what each target takes and what it reports', () => {
  for (const [target, cases] of Object.entries(TABLE) as [ProviderTarget, readonly Case[]][]) {
    it.each(cases.map((c) => [c[0], c] as const))(`${target}: %s`, (_, [, schema, want]) => {
      const got = schemaFindings(schema, target).map((f) => `${f.effect} ${pointer(f.path)}`.trimEnd());
      expect(got.sort()).toEqual(want.map((w) => w.trimEnd()).sort());
    });
  }
});

describe('the report agrees with what the bridges send', () => {
  it('openai-strict: each finding is a note of the strict transform, and each note a finding', () => {
    // A note about an object (a map has no strict form) stands where the finding names its keyword.
    const same = (note: string, finding: string) => note === finding || finding.startsWith(`${note}/`);
    for (const [label, schema] of TABLE['openai-strict']) {
      const notes = toStrictSchema(schema).notes.map((n) => n.path);
      // oneOf → anyOf keeps the meaning, so the transform notes nothing for it.
      const findings = schemaFindings(schema, 'openai-strict').filter((f) => f.path.at(-1) !== 'oneOf').map((f) => pointer(f.path));
      expect(findings.filter((f) => !notes.some((n) => same(n, f))), label).toEqual([]);
      expect(notes.filter((n) => !findings.some((f) => same(n, f))), label).toEqual([]);
    }
  });

  it('anthropic: what is reported is what is left out, and nothing else changes', () => {
    for (const [label, schema, want] of TABLE.anthropic) {
      const [tool] = toAnthropicTools([{ name: 't', inputSchema: schema as never }]);
      const sent = tool!.input_schema as Record<string, unknown>;
      const left = Object.keys(schema).filter((k) => !(k in sent));
      expect(left.map((k) => `dropped /${k}`), label).toEqual([...want]);
      for (const [k, v] of Object.entries(sent)) expect(v, `${label}: ${k}`).toEqual((schema as Record<string, unknown>)[k]);
    }
  });
});

/** Property names of every object in a schema. */
const propertyNames = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.flatMap(propertyNames);
  if (typeof v !== 'object' || v === null) return [];
  return Object.entries(v).flatMap(([k, x]) => (k === 'properties' && typeof x === 'object' && x !== null ? [...Object.keys(x), ...Object.values(x).flatMap(propertyNames)] : propertyNames(x)));
};

describe('gemini: the report agrees with the conversion', () => {
  /** Keywords anywhere in a schema. */
  const keywords = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap(keywords) : typeof v === 'object' && v !== null ? Object.entries(v).flatMap(([k, x]) => [k, ...keywords(x)]) : []);
  for (const [label, schema, want] of TABLE.gemini) {
    it(label, () => {
      const sent = toGeminiSchema(schema);
      // A schema with nothing to report goes out as it is.
      if (want.length === 0) expect(sent).toEqual(schema);
      // Nothing Gemini lacks is left in what is sent: no $ref, const, oneOf, type list or dropped keyword.
      const left = keywords(sent);
      for (const k of ['$ref', '$defs', 'const', 'oneOf', 'allOf', 'not', 'additionalProperties', 'exclusiveMinimum', 'multipleOf']) expect(left, `${label}: ${k}`).not.toContain(k);
      expect(JSON.stringify(sent)).not.toMatch(/"type":\[/);
      // Every property name sent is one Gemini takes, and each reported name is one the conversion renamed.
      const sentNames = propertyNames(sent);
      expect(sentNames.filter((n) => !GEMINI_PROPERTY_NAME.test(n)), label).toEqual([]);
      for (const finding of want.filter((w) => /\/properties\/[^/]+$/.test(w))) expect(sentNames, label).not.toContain(finding.split('/').at(-1));
    });
  }

  it('names: a name Gemini refuses is declared mapped and dispatched back to the MCP tool', async () => {
    const tools = [{ name: '2fa.check', inputSchema: { type: 'object' as const, properties: { code: { const: 'x' } } } }, { name: 'files.read', inputSchema: { type: 'object' as const } }];
    const declared = toGeminiFunctionDeclarations(tools);
    // Dots are Gemini-safe: kept; a leading digit is not.
    expect(declared.map((d) => d.name)).toEqual(['_2fa.check', 'files.read']);
    expect(declared[0]!.parametersJsonSchema).toEqual({ type: 'object', properties: { code: { enum: ['x'] } } });
    const received: unknown[] = [];
    const callers = Object.fromEntries(tools.map((t) => [t.name, async (args: unknown) => (received.push([t.name, args]), { isError: false, content: [{ type: 'text', text: 'ok' }] })]));
    const parts = await dispatchGeminiCalls(callers, [{ id: 'a', name: '_2fa.check', args: { code: 'x' } }, { name: 'files.read' }], tools);
    expect(received).toEqual([['2fa.check', { code: 'x' }], ['files.read', {}]]);
    expect(parts).toEqual([{ functionResponse: { id: 'a', name: '_2fa.check', response: { output: 'ok' } } }, { functionResponse: { name: 'files.read', response: { output: 'ok' } } }]);
  });
});

describe('strict mode round-trips through the dispatcher', () => {
  it('the handler receives exactly what a non-strict call gives', async () => {
    const inputSchema = { type: 'object' as const, properties: { q: { type: 'string' }, limit: { type: 'integer' }, filter: { type: 'object', properties: { tag: { type: 'string' }, since: { type: 'string' } }, required: ['tag'] }, note: { type: ['string', 'null'] } }, required: ['q'] };
    const tools = [{ name: 'files.search', inputSchema }];
    const [declared] = toOpenAiTools(tools, { strict: true });
    expect(declared!.function.strict).toBe(true);
    const received: unknown[] = [];
    const callers = { 'files.search': async (args: unknown) => (received.push(args), { isError: false, content: [{ type: 'text', text: 'ok' }] }) };
    const plain = { q: 'x', filter: { tag: 't' }, note: null };
    const strict = { q: 'x', limit: null, filter: { tag: 't', since: null }, note: null };
    await dispatchToolCalls(callers, [{ id: '1', function: { name: 'files.search', arguments: JSON.stringify(plain) } }], tools);
    await dispatchToolCalls(callers, [{ id: '2', function: { name: declared!.function.name, arguments: JSON.stringify(strict) } }], tools);
    // A null the schema accepts (`note`) stays: only "not given" nulls are removed.
    expect(received).toEqual([plain, plain]);
    await dispatchToolUses(callers, [{ type: 'tool_use', id: '3', name: toAnthropicTools(tools)[0]!.name, input: plain } as never], tools);
    expect(received[2]).toEqual(plain);
  });
});

describe('gemini property names round-trip through the dispatcher', () => {
  const inputSchema = {
    type: 'object' as const,
    properties: {
      'user-id': { type: 'string' },
      user_id: { type: 'string' },
      filter: { $ref: '#/$defs/Filter' },
      rows: { type: 'array', items: { type: 'object', properties: { '1st': { type: 'integer' }, ok: { type: 'boolean' } } } },
      target: { anyOf: [{ type: 'object', properties: { 'x-y': { type: 'string' } }, required: ['x-y'] }, { type: 'string' }] },
    },
    required: ['user-id'],
    $defs: { Filter: { type: 'object', properties: { 'created.after': { type: 'string' }, tag: { type: 'string' } } } },
  };
  const tools = [{ name: 'users.find', inputSchema }];

  it('the names sent are Gemini-safe, stable and collision-free; the handler receives exactly what a plain MCP call gives', async () => {
    const [declared] = toGeminiFunctionDeclarations(tools);
    const sent = declared!.parametersJsonSchema as { properties: Record<string, { properties?: Record<string, unknown>; items?: { properties: Record<string, unknown> }; anyOf?: { properties?: Record<string, unknown>; required?: string[] }[] }>; required: string[] };
    // `user_id` is taken by a property of its own: `user-id` gets a hashed name, never the same one.
    const userId = Object.keys(sent.properties)[0]!;
    expect(userId).toMatch(/^user_id_[0-9a-f]{8}$/);
    expect(Object.keys(sent.properties)).toEqual([userId, 'user_id', 'filter', 'rows', 'target']);
    expect(sent.required).toEqual([userId]);
    expect(Object.keys(sent.properties.filter!.properties!)).toEqual(['created_after', 'tag']);
    expect(Object.keys(sent.properties.rows!.items!.properties)).toEqual(['_1st', 'ok']);
    expect(sent.properties.target!.anyOf![0]).toEqual({ type: 'object', properties: { x_y: { type: 'string' } }, required: ['x_y'] });
    // A root `anyOf` of `required` branches names the renamed properties too.
    expect(toGeminiSchema({ type: 'object', properties: { 'a-b': { type: 'string' }, c: { type: 'string' } }, anyOf: [{ required: ['a-b'] }, { required: ['c'] }] })).toEqual({ type: 'object', properties: { a_b: { type: 'string' }, c: { type: 'string' } }, anyOf: [{ required: ['a_b'] }, { required: ['c'] }] });
    // Stable: a pure function of the schema, whatever else is declared and in which order.
    expect(toGeminiFunctionDeclarations([{ name: 'other', inputSchema: { type: 'object' as const } }, ...tools])[1]).toEqual(declared);

    const received: unknown[] = [];
    const callers = { 'users.find': async (args: unknown) => (received.push(args), { isError: false, content: [{ type: 'text', text: 'ok' }] }) };
    const plain = { 'user-id': 'u1', user_id: 'u2', filter: { 'created.after': '2026-01-01', tag: 't' }, rows: [{ '1st': 1, ok: true }, { ok: false }], target: { 'x-y': 'z' } };
    const fromModel = { [userId]: 'u1', user_id: 'u2', filter: { created_after: '2026-01-01', tag: 't' }, rows: [{ _1st: 1, ok: true }, { ok: false }], target: { x_y: 'z' } };
    const parts = await dispatchGeminiCalls(callers, [{ name: declared!.name, args: fromModel }, { name: declared!.name, args: { [userId]: 'u3', target: 'plain' } }], tools);
    expect(parts.map((p) => p.functionResponse.response)).toEqual([{ output: 'ok' }, { output: 'ok' }]);
    expect(received).toEqual([plain, { 'user-id': 'u3', target: 'plain' }]);
    expect(fromGeminiArguments(inputSchema, fromModel)).toEqual(plain);
  });
});
