// The generated anthropic.ts (and gemini.ts) with the official SDKs: a host loop compiles against each with the
// strict options and no casts (a control written against the wrong shapes must fail), and runs end to end —
// the official client, pointed at a fake provider API on 127.0.0.1 that asks for tool calls, the generated
// client running them on a generated server (main.js over HTTP), the loop ending with the model's text.
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeatherClient } from '../../generated/weather/client.js';
import { ROOT } from '../support/root.js';
import { anthropicToolLoop } from '../support/anthropic-loops.js';
import { FakeOpenAi } from '../support/fake-openai.js';
import { geminiToolLoop } from '../support/gemini-loops.js';
import { startHttp, type HttpProcess } from '../support/servers.js';
import { assertionsIn, diagnosticsByFile } from '../support/type-check.js';
import { generateAndCompile } from '../support/generated-package.js';
import { startScript } from '../support/servers.js';

const ANTHROPIC_LOOP = join(ROOT, 'test/support/anthropic-loops.ts');
/** The OpenAI form handed to Anthropic, and a readonly tools array: must not compile. */
const ANTHROPIC_CONTROL = join(ROOT, 'test/support/anthropic-control.ts');
const ANTHROPIC_CONTROL_TEXT = [
  "import type Anthropic from '@anthropic-ai/sdk';",
  "import { openAiTools } from '../../generated/weather/openai.js';",
  "import { anthropicTools } from '../../generated/weather/anthropic.js';",
  'declare const frozen: readonly (typeof anthropicTools)[number][];',
  'export async function loop(anthropic: Anthropic): Promise<void> {',
  "  await anthropic.messages.create({ model: 'm', max_tokens: 1, messages: [], tools: openAiTools });",
  "  await anthropic.messages.create({ model: 'm', max_tokens: 1, messages: [], tools: frozen });",
  '}',
].join('\n');

const GEMINI_LOOP = join(ROOT, 'test/support/gemini-loops.ts');
/** The schema in `parameters` (typed by the SDK's own `Type` enum), and Anthropic answers as Gemini parts: must not compile. */
const GEMINI_CONTROL = join(ROOT, 'test/support/gemini-control.ts');
const GEMINI_CONTROL_TEXT = [
  "import type { GoogleGenAI } from '@google/genai';",
  "import type { Part } from '@google/genai';",
  "import type { dispatchWeatherToolUses } from '../../generated/weather/anthropic.js';",
  "import { geminiFunctionDeclarations } from '../../generated/weather/gemini.js';",
  'declare const results: Awaited<ReturnType<typeof dispatchWeatherToolUses>>;',
  'export const parts: Part[] = results;',
  'const asParameters = geminiFunctionDeclarations.map((d) => ({ name: d.name, parameters: { type: "OBJECT" } }));',
  'export async function loop(ai: GoogleGenAI): Promise<void> {',
  "  await ai.models.generateContent({ model: 'm', contents: [], config: { tools: [{ functionDeclarations: asParameters }] } });",
  '}',
].join('\n');

// Both loops and both controls in one program, made by whichever test runs first: the lib, MCP and runtime
// types are resolved once for the two (each file's diagnostics are still its own).
let checked: Map<string, string[]> | undefined;
const typeChecked = () => (checked ??= diagnosticsByFile([GEMINI_LOOP, ANTHROPIC_LOOP], new Map([[GEMINI_CONTROL, GEMINI_CONTROL_TEXT], [ANTHROPIC_CONTROL, ANTHROPIC_CONTROL_TEXT]])));

describe('generated provider bridges against the official SDK types', () => {
  it('a Gemini generateContent loop compiles under the strict options without casts; `parameters` with a plain string type and Anthropic answers as parts do not', () => {
    expect(assertionsIn(GEMINI_LOOP)).toEqual([]);
    const diagnostics = typeChecked();
    expect(diagnostics.get(GEMINI_LOOP)).toEqual([]);
    const control = diagnostics.get(GEMINI_CONTROL)!.join('\n');
    expect(control).toMatch(/Type 'string' is not assignable to type 'Type'/);
    expect(control).toMatch(/has no properties in common with type 'Part'/);
  });


  it('an Anthropic Messages loop compiles under the strict options without casts; the OpenAI form and a readonly array do not', () => {
    expect(assertionsIn(ANTHROPIC_LOOP)).toEqual([]);
    const diagnostics = typeChecked();
    expect(diagnostics.get(ANTHROPIC_LOOP)).toEqual([]);
    const control = diagnostics.get(ANTHROPIC_CONTROL)!.join('\n');
    expect(control).toMatch(/Type 'OpenAiTool' is not assignable to type 'ToolUnion'/);
    expect(control).toMatch(/readonly.*cannot be assigned to the mutable type/);
  });
});

describe('official provider clients, fake provider APIs and a generated server', () => {
  let server: HttpProcess;
  let client: WeatherClient;
  beforeAll(async () => {
    server = await startHttp('weather');
    client = await WeatherClient.connect({ url: server.url });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('Anthropic: tool_use blocks run on the MCP server, tool_result blocks go back (a failing call has is_error), then the text', async () => {
    const message = (id: string, content: unknown[], stop: string) => ({ id, type: 'message', role: 'assistant', model: 'test-model', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
    const fake = new FakeOpenAi({
      '/v1/messages': [
        message('msg_1', [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_add', name: 'add', input: { a: 2, b: 3 } },
          { type: 'tool_use', id: 'toolu_alerts', name: 'get_alerts', input: { state: 'CA' } },
          { type: 'tool_use', id: 'toolu_bad', name: 'add', input: { a: 'two' } },
          { type: 'tool_use', id: 'toolu_unknown', name: 'shell', input: {} },
        ], 'tool_use'),
        message('msg_2', [{ type: 'text', text: '2 + 3 = 5, and California has a heat advisory.' }], 'end_turn'),
      ],
    });
    const anthropic = new Anthropic({ apiKey: 'test-key', baseURL: (await fake.start()).replace(/\/v1$/, ''), maxRetries: 0 });
    try {
      const { text } = await anthropicToolLoop(anthropic, client, 'What is 2 + 3, and any alerts in CA?');
      expect(text).toBe('2 + 3 = 5, and California has a heat advisory.');
      expect(fake.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
      const [first, second] = fake.requests.map((r) => r.body);
      const tools = first!.tools as { name: string; input_schema: { type: string } }[];
      expect(tools.map((t) => t.name)).toEqual(['get_forecast', 'get_alerts', 'add']);
      for (const t of tools) expect(t.input_schema.type).toBe('object');
      const messages = second!.messages as { role: string; content: unknown }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[2]!.content).toEqual([
        { type: 'tool_result', tool_use_id: 'toolu_add', content: '{"sum":5}' },
        { type: 'tool_result', tool_use_id: 'toolu_alerts', content: expect.stringContaining('Heat Advisory') },
        { type: 'tool_result', tool_use_id: 'toolu_bad', content: expect.stringMatching(/a|b/), is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_unknown', content: 'unknown tool shell', is_error: true },
      ]);
    } finally {
      await fake.stop();
    }
  });
  it('Gemini: functionCalls run on the MCP server, functionResponse parts go back (errors as `error`), then the text', async () => {
    const reply = (parts: unknown[]) => ({ candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts } }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } });
    const fake = new FakeOpenAi({
      '/v1beta/models/test-model:generateContent': [
        reply([
          { functionCall: { id: 'c1', name: 'add', args: { a: 2, b: 3 } } },
          { functionCall: { id: 'c2', name: 'get_alerts', args: { state: 'CA' } } },
          { functionCall: { id: 'c3', name: 'shell', args: {} } },
        ]),
        reply([{ text: '2 + 3 = 5, and California has a heat advisory.' }]),
      ],
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: (await fake.start()).replace(/\/v1$/, ''), apiVersion: 'v1beta' } });
    try {
      const { text } = await geminiToolLoop(ai, client, 'What is 2 + 3, and any alerts in CA?');
      expect(text).toBe('2 + 3 = 5, and California has a heat advisory.');
      expect(fake.requests.map((r) => r.path)).toEqual(['/v1beta/models/test-model:generateContent', '/v1beta/models/test-model:generateContent']);
      const [first, second] = fake.requests.map((r) => r.body);
      const declarations = (first!.tools as { functionDeclarations: { name: string; parametersJsonSchema: { type: string } }[] }[])[0]!.functionDeclarations;
      expect(declarations.map((d) => d.name)).toEqual(['get_forecast', 'get_alerts', 'add']);
      for (const d of declarations) expect(d.parametersJsonSchema.type).toBe('object');
      const contents = second!.contents as { role: string; parts: Record<string, unknown>[] }[];
      expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
      expect(contents[2]!.parts).toEqual([
        { functionResponse: { id: 'c1', name: 'add', response: { output: { sum: 5 } } } },
        { functionResponse: { id: 'c2', name: 'get_alerts', response: { output: expect.objectContaining({}) } } },
        { functionResponse: { id: 'c3', name: 'shell', response: { error: 'unknown tool shell' } } },
      ]);
      expect(JSON.stringify(contents[2]!.parts[1])).toContain('Heat Advisory');
    } finally {
      await fake.stop();
    }
  });
});

// A tool whose property names Gemini refuses: the bridge renames them, the dispatcher maps them back, and
// the handler (which echoes its arguments) receives exactly what a direct MCP call gives it.
const RENAMES_DIR = join(ROOT, '.tmp/gemini-renames-e2e');
const RENAMES_SPEC = `mcpgen: 1
server: { name: renames, version: 1.0.0 }
tools:
  - name: find_user
    description: Find a user
    input:
      type: object
      properties:
        user-id: { type: string }
        user_id: { type: string }
        filter:
          type: object
          properties:
            created.after: { type: string }
            1st: { type: integer }
      required: [user-id]
`;
const RENAMES_HANDLERS = `import type { RenamesHandlers } from './server.js';
export const handlers: RenamesHandlers = {
  async findUser(args) { return JSON.stringify(args); },
};
`;

describe('Gemini: property names the bridge renames, end to end', () => {
  it('the official client gets Gemini-safe names, the model answers with them, the handler receives the MCP names', async () => {
    const built = await generateAndCompile(RENAMES_DIR, 'renames', RENAMES_SPEC, { 'handlers.ts': RENAMES_HANDLERS });
    expect(built.compileErrors).toEqual([]);
    const server = await startScript(join(built.js, 'main.js'));
    const { RenamesClient } = (await import(join(built.js, 'client.js'))) as { RenamesClient: { connect(o: { url: string }): Promise<{ findUser(a: unknown): Promise<{ content: { text?: string }[] }>; close(): Promise<void> }> } };
    const { dispatchRenamesGeminiCalls, geminiTools } = (await import(join(built.js, 'gemini.js'))) as { dispatchRenamesGeminiCalls: (c: unknown, calls: unknown) => Promise<unknown[]>; geminiTools: { functionDeclarations: { name: string; parametersJsonSchema: { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] } }[] }[] };
    const client = await RenamesClient.connect({ url: server.url });
    const reply = (parts: unknown[]) => ({ candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts } }] });
    const declared = geminiTools[0]!.functionDeclarations[0]!.parametersJsonSchema;
    // `user_id` is a property of its own, so `user-id` gets a hashed name; nested names are renamed too.
    const userId = Object.keys(declared.properties)[0]!;
    expect(userId).toMatch(/^user_id_[0-9a-f]{8}$/);
    expect(declared.required).toEqual([userId]);
    const fromModel = { [userId]: 'u1', user_id: 'u2', filter: { created_after: '2026-01-01', _1st: 3 } };
    const fake = new FakeOpenAi({ '/v1beta/models/test-model:generateContent': [reply([{ functionCall: { id: 'c1', name: 'find_user', args: fromModel } }]), reply([{ text: 'found' }])] });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: (await fake.start()).replace(/\/v1$/, ''), apiVersion: 'v1beta' } });
    try {
      const contents: unknown[] = [{ role: 'user', parts: [{ text: 'who?' }] }];
      const first = await ai.models.generateContent({ model: 'test-model', contents: contents as never, config: { tools: geminiTools } });
      contents.push(first.candidates![0]!.content, { role: 'user', parts: await dispatchRenamesGeminiCalls(client, first.functionCalls) });
      expect((await ai.models.generateContent({ model: 'test-model', contents: contents as never, config: { tools: geminiTools } })).text).toBe('found');
      // What went over the wire to Gemini: only names its rule takes.
      const sentTools = fake.requests[0]!.body.tools as { functionDeclarations: { parametersJsonSchema: { properties: Record<string, { properties?: Record<string, unknown> }> } }[] }[];
      const sent = sentTools[0]!.functionDeclarations[0]!.parametersJsonSchema;
      expect(Object.keys(sent.properties)).toEqual([userId, 'user_id', 'filter']);
      expect(Object.keys(sent.properties.filter!.properties!)).toEqual(['created_after', '_1st']);
      const direct = { 'user-id': 'u1', user_id: 'u2', filter: { 'created.after': '2026-01-01', '1st': 3 } };
      const answer = (fake.requests[1]!.body.contents as { parts: { functionResponse?: { response: { output: unknown } } }[] }[])[2]!.parts[0]!.functionResponse!.response.output;
      expect(JSON.parse(String(answer))).toEqual(direct);
      // The same arguments sent as a plain MCP call reach the handler the same way.
      expect((await client.findUser(direct)).content[0]!.text).toBe(answer);
    } finally {
      await fake.stop();
      await client.close();
      await server.stop();
    }
  }, 120_000);
});
