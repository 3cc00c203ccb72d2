// A host loop as an application writes it with the real `@google/genai` and a generated gemini.ts: no
// casts, no `any`. test/e2e/provider-bridges.test.ts compiles this file with the strict options generated
// code promises, checks it holds no type assertion, and runs it against a fake Gemini API.
import type { Content, GoogleGenAI } from '@google/genai';
import type { WeatherClient } from '../../generated/weather/client.js';
import { dispatchWeatherGeminiCalls, geminiTools } from '../../generated/weather/gemini.js';

/** Ask, run the response's functionCalls through the MCP client, send the functionResponse parts back, until text. */
export async function geminiToolLoop(ai: GoogleGenAI, client: WeatherClient, question: string, maxTurns = 4): Promise<{ text: string; contents: Content[] }> {
  const contents: Content[] = [{ role: 'user', parts: [{ text: question }] }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const response = await ai.models.generateContent({ model: 'test-model', contents, config: { tools: geminiTools } });
    const calls = response.functionCalls;
    if (calls === undefined || calls.length === 0) return { text: response.text ?? '', contents };
    const content = response.candidates?.[0]?.content;
    if (content !== undefined) contents.push(content);
    contents.push({ role: 'user', parts: await dispatchWeatherGeminiCalls(client, calls) });
  }
  throw new Error(`no answer after ${maxTurns} turns`);
}
