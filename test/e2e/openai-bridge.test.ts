// The generated openai.ts with the real `openai` package (6.x): a host loop compiles against it with the
// strict options and no casts (chat completions and the Responses API), and runs end to end — the official
// OpenAI client talks to a fake OpenAI server that asks for two tool calls, the generated client runs them
// on a generated server (main.js over HTTP), and the loop ends with the model's text.
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeatherClient } from '../../generated/weather/client.js';
import { ROOT } from '../support/root.js';
import { FakeOpenAi } from '../support/fake-openai.js';
import { chatToolLoop, responsesToolLoop } from '../support/openai-loops.js';
import { startHttp, type HttpProcess } from '../support/servers.js';
import { assertionsIn, diagnosticsByFile } from '../support/type-check.js';

const LOOPS = join(ROOT, 'test/support/openai-loops.ts');
/** A loop written against what openai.ts exported before (a readonly tools array, function calls only): must not compile. */
const CONTROL = join(ROOT, 'test/support/openai-control.ts');
const CONTROL_TEXT = [
  "import type OpenAI from 'openai';",
  "import { openAiTools } from '../../generated/weather/openai.js';",
  'declare const tools: readonly (typeof openAiTools)[number][];',
  'declare function dispatch(calls: readonly { id: string; function: { name: string; arguments: string } }[]): void;',
  'export async function loop(openai: OpenAI): Promise<void> {',
  "  const c = await openai.chat.completions.create({ model: 'm', messages: [], tools });",
  '  dispatch(c.choices[0]?.message.tool_calls ?? []);',
  '}',
].join('\n');

describe('generated openai.ts against the openai package types', () => {
  it('a chat-completions loop and a Responses API loop compile under the strict options, without casts; the old shapes do not', () => {
    expect(assertionsIn(LOOPS)).toEqual([]);
    const diagnostics = diagnosticsByFile([LOOPS], new Map([[CONTROL, CONTROL_TEXT]]));
    expect(diagnostics.get(LOOPS)).toEqual([]);
    // The control: the same compiler catches what the issue reported, so the check above can fail.
    const control = diagnostics.get(CONTROL)!.join('\n');
    expect(control).toMatch(/readonly.*cannot be assigned to the mutable type/);
    expect(control).toMatch(/Property 'function' is missing in type 'ChatCompletionMessageCustomToolCall'/);
  });
});

describe('the real openai client, a fake OpenAI server and a generated server', () => {
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

  it('chat completions: two tool_calls run on the MCP server (a custom call is refused), then the text ends the loop', async () => {
    const completion = (message: Record<string, unknown>, finish: string) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: 'assistant', refusal: null, ...message } }],
    });
    const fake = new FakeOpenAi({
      '/v1/chat/completions': [
        completion(
          {
            content: null,
            tool_calls: [
              { id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
              { id: 'call_alerts', type: 'function', function: { name: 'get_alerts', arguments: '{"state":"CA"}' } },
              { id: 'call_custom', type: 'custom', custom: { name: 'shell', input: 'rm -rf /' } },
            ],
          },
          'tool_calls',
        ),
        completion({ content: '2 + 3 = 5, and California has a heat advisory.' }, 'stop'),
      ],
    });
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: await fake.start(), maxRetries: 0 });
    try {
      const { text } = await chatToolLoop(openai, client, 'What is 2 + 3, and any alerts in CA?');
      expect(text).toBe('2 + 3 = 5, and California has a heat advisory.');
      expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      const [first, second] = fake.requests.map((r) => r.body);
      expect((first!.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['get_forecast', 'get_alerts', 'add']);
      const toolMessages = (second!.messages as { role: string }[]).filter((m) => m.role === 'tool');
      expect(toolMessages).toEqual([
        { role: 'tool', tool_call_id: 'call_add', content: '{"sum":5}' },
        { role: 'tool', tool_call_id: 'call_alerts', content: expect.stringContaining('Heat Advisory') },
        { role: 'tool', tool_call_id: 'call_custom', content: '{"error":"custom tool calls are not supported: only function tools are available"}' },
      ]);
    } finally {
      await fake.stop();
    }
  });

  it('Responses API: function_call items run on the MCP server, function_call_output items go back (a custom call is refused, reasoning skipped), then the text', async () => {
    const response = (id: string, output: unknown[]) => ({ id, object: 'response', created_at: 0, model: 'test-model', status: 'completed', output, tools: [], parallel_tool_calls: true });
    const fake = new FakeOpenAi({
      '/v1/responses': [
        response('resp_1', [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_add', name: 'add', arguments: '{"a":2,"b":3}', status: 'completed' },
          { type: 'function_call', id: 'fc_2', call_id: 'call_forecast', name: 'get_forecast', arguments: '{"city":"Paris"}', status: 'completed' },
          { type: 'custom_tool_call', id: 'ct_1', call_id: 'call_custom', name: 'shell', input: 'rm -rf /' },
        ]),
        response('resp_2', [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'The sum is 5; Paris is forecast.', annotations: [] }] }]),
      ],
    });
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: await fake.start(), maxRetries: 0 });
    try {
      const { text, turns } = await responsesToolLoop(openai, client, 'What is 2 + 3, and the weather in Paris?');
      expect(text).toBe('The sum is 5; Paris is forecast.');
      expect(turns).toBe(2);
      const [first, second] = fake.requests.map((r) => r.body);
      expect(first!.tools).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function', name: 'add', strict: false, parameters: expect.objectContaining({ type: 'object' }) })]));
      expect(second!.previous_response_id).toBe('resp_1');
      expect(second!.input).toEqual([
        { type: 'function_call_output', call_id: 'call_add', output: '{"sum":5}' },
        { type: 'function_call_output', call_id: 'call_forecast', output: expect.stringContaining('"city":"Paris"') },
        { type: 'custom_tool_call_output', call_id: 'call_custom', output: '{"error":"custom tool calls are not supported: only function tools are available"}' },
      ]);
    } finally {
      await fake.stop();
    }
  });
});
