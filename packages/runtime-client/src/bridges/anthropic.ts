// Anthropic's half of tool use (`client.messages.create({ tools })`): tools are { name, description,
// input_schema }, the model's calls are `tool_use` blocks of `message.content` and the answers
// `tool_result` blocks of the next user message. Structural types, assignable to @anthropic-ai/sdk's, so
// generated code never imports it. Names follow Anthropic's `^[a-zA-Z0-9_-]{1,64}$` (provider-names.ts).
import type { Tool } from '@modelcontextprotocol/client';
import { callTool, type OpenAiCaller } from './call-tool.js';
import { plainSchema } from './openai.js';
import { providerNames } from './provider-names.js';

export interface AnthropicTool {
  readonly name: string;
  readonly description?: string;
  /** Always `type: "object"` at the root, with no `anyOf`/`oneOf`/`allOf` there (the API refuses both). */
  readonly input_schema: { readonly type: 'object'; readonly [keyword: string]: unknown };
}

/** Any block of `message.content` (text, thinking, server tool blocks…): only `tool_use` blocks are acted on. */
export interface AnthropicContentBlock {
  readonly type: string;
}

export interface AnthropicToolResult {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  /** Set when the tool failed (or the call could not run): the model reads the text as an error. */
  readonly is_error?: boolean;
}

/** Root keywords Anthropic's input_schema refuses; the server still checks them on every call. */
const ROOT_REFUSED = ['anyOf', 'oneOf', 'allOf'] as const;

/** MCP tool definitions as Anthropic `tools` (a mutable array: the SDK types `tools` as one). */
export function toAnthropicTools(tools: readonly Tool[]): AnthropicTool[] {
  const names = providerNames(tools.map((t) => t.name)).toProvider;
  return tools.map((t) => {
    const description = t.description ?? t.title;
    const schema = plainSchema(t.inputSchema) as Record<string, unknown>;
    const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => !(ROOT_REFUSED as readonly string[]).includes(k) && k !== 'type'));
    return { name: names.get(t.name) ?? t.name, ...(description !== undefined ? { description } : {}), input_schema: { type: 'object', ...rest } };
  });
}

/**
 * Run the `tool_use` blocks of a message's content (in order), each answered with a `tool_result` block
 * for the next user message (errors included, with `is_error`); every other block is skipped
 * (`server_tool_use` blocks are run by the API itself).
 */
export async function dispatchToolUses(callers: Readonly<Record<string, OpenAiCaller>>, blocks: readonly AnthropicContentBlock[], tools?: readonly Tool[]): Promise<AnthropicToolResult[]> {
  const out: AnthropicToolResult[] = [];
  for (const block of blocks) {
    const use = block as Partial<Record<'id' | 'name' | 'input', unknown>>;
    if (block.type !== 'tool_use' || typeof use.id !== 'string' || typeof use.name !== 'string') continue;
    const answer = await callTool(callers, use.name, use.input ?? {}, tools);
    out.push({ type: 'tool_result', tool_use_id: use.id, content: answer.text, ...(answer.isError ? { is_error: true } : {}) });
  }
  return out;
}
