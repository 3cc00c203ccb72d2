// A host loop as an application writes it with the real `@anthropic-ai/sdk` and a generated anthropic.ts:
// no casts, no `any`. test/e2e/provider-bridges.test.ts compiles this file with the strict options
// generated code promises, checks it holds no type assertion, and runs it against a fake Anthropic API.
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WeatherClient } from '../../generated/weather/client.js';
import { anthropicTools, dispatchWeatherToolUses } from '../../generated/weather/anthropic.js';

/** Ask, run the model's tool_use blocks through the MCP client, send the tool_result blocks back, until text. */
export async function anthropicToolLoop(anthropic: Anthropic, client: WeatherClient, question: string, maxTurns = 4): Promise<{ text: string; messages: MessageParam[] }> {
  const messages: MessageParam[] = [{ role: 'user', content: question }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const message = await anthropic.messages.create({ model: 'test-model', max_tokens: 1024, messages, tools: anthropicTools });
    messages.push({ role: 'assistant', content: message.content });
    const results = await dispatchWeatherToolUses(client, message.content);
    if (results.length === 0) return { text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), messages };
    messages.push({ role: 'user', content: results });
  }
  throw new Error(`no answer after ${maxTurns} turns`);
}
