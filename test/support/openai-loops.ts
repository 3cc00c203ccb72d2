// Host loops as an application writes them with the real `openai` package (6.x) and a generated openai.ts:
// no casts, no `any`. test/e2e/openai-bridge.test.ts compiles this file with the strict options generated
// code promises, checks it holds no type assertion, and runs both loops against a fake OpenAI server.
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { WeatherClient } from '../../generated/weather/client.js';
import { dispatchWeatherFunctionCalls, dispatchWeatherToolCalls, openAiResponsesTools, openAiTools } from '../../generated/weather/openai.js';

/** Chat Completions: ask, run the model's tool_calls through the MCP client, send the answers back, until text. */
export async function chatToolLoop(openai: OpenAI, client: WeatherClient, question: string, maxTurns = 4): Promise<{ text: string; messages: ChatCompletionMessageParam[] }> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const completion = await openai.chat.completions.create({ model: 'test-model', messages, tools: openAiTools });
    const message = completion.choices[0]?.message;
    if (message === undefined) throw new Error('the model sent no choice');
    messages.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return { text: message.content ?? '', messages };
    messages.push(...(await dispatchWeatherToolCalls(client, message.tool_calls)));
  }
  throw new Error(`no answer after ${maxTurns} turns`);
}

/** Responses API: the same loop with function_call items and function_call_output items (chained by previous_response_id). */
export async function responsesToolLoop(openai: OpenAI, client: WeatherClient, question: string, maxTurns = 4): Promise<{ text: string; turns: number }> {
  let response = await openai.responses.create({ model: 'test-model', input: question, tools: openAiResponsesTools });
  for (let turn = 1; turn < maxTurns; turn++) {
    const outputs = await dispatchWeatherFunctionCalls(client, response.output);
    if (outputs.length === 0) return { text: response.output_text, turns: turn };
    response = await openai.responses.create({ model: 'test-model', previous_response_id: response.id, input: outputs, tools: openAiResponsesTools });
  }
  throw new Error(`no answer after ${maxTurns} turns`);
}
