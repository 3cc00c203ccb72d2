// The Responses API's half of function calling (`client.responses.create({ tools })`): its tools are flat
// ({ type, name, parameters, strict }), the model's calls are `function_call` items of `response.output`
// and the answers `function_call_output` items of the next request's `input`. Structural types, assignable
// to the `openai` package's, so generated code never imports it.
import type { Tool } from '@modelcontextprotocol/client';
import { refusal, runToolCall, toOpenAiTools, type OpenAiCaller, type OpenAiToolsOptions } from './openai.js';

export interface OpenAiResponsesTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * Always false: strict mode needs every property required and `additionalProperties: false`, which an
   * MCP input schema need not have (the API would refuse the tool). The server validates the arguments.
   */
  readonly strict: boolean;
}

/** Any item of `response.output` (messages, reasoning, calls…): only calls are acted on. */
export interface OpenAiResponseItem {
  readonly type: string;
}

export interface OpenAiFunctionCallOutput {
  readonly type: 'function_call_output';
  readonly call_id: string;
  readonly output: string;
}

/** The answer to a `custom_tool_call` item: refused, this bridge declares function tools only. */
export interface OpenAiCustomToolCallOutput {
  readonly type: 'custom_tool_call_output';
  readonly call_id: string;
  readonly output: string;
}

export type OpenAiResponsesOutput = OpenAiFunctionCallOutput | OpenAiCustomToolCallOutput;

/** MCP tool definitions as Responses API `tools` (the same JSON Schema the chat-completions form carries). */
export function toOpenAiResponsesTools(tools: readonly Tool[], options: OpenAiToolsOptions = {}): OpenAiResponsesTool[] {
  return toOpenAiTools(tools, options).map(({ function: f }) => ({ type: 'function', name: f.name, ...(f.description !== undefined ? { description: f.description } : {}), parameters: f.parameters, strict: f.strict ?? false }));
}

/**
 * Run the `function_call` items of a response's output (in order), each answered with a
 * `function_call_output` item for the next request's `input`; `custom_tool_call` items are answered with a
 * refusal; every other item (messages, reasoning, built-in tool calls the API ran itself) is skipped.
 */
export async function dispatchFunctionCalls(callers: Readonly<Record<string, OpenAiCaller>>, items: readonly OpenAiResponseItem[], tools?: readonly Tool[]): Promise<OpenAiResponsesOutput[]> {
  const out: OpenAiResponsesOutput[] = [];
  for (const item of items) {
    const call = item as Partial<Record<'call_id' | 'name' | 'arguments', unknown>>;
    if (typeof call.call_id !== 'string') continue;
    if (item.type === 'function_call' && typeof call.name === 'string' && typeof call.arguments === 'string') {
      out.push({ type: 'function_call_output', call_id: call.call_id, output: await runToolCall(callers, call.name, call.arguments, tools) });
    } else if (item.type === 'custom_tool_call') {
      out.push({ type: 'custom_tool_call_output', call_id: call.call_id, output: refusal('custom') });
    }
  }
  return out;
}
