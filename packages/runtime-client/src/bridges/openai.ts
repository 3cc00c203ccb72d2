import type { Tool } from '@modelcontextprotocol/client';
import { providerNames } from './provider-names.js';
import { toStrictSchema } from './strict-schema.js';
import { callTool, mcpToolName, type OpenAiCaller } from './call-tool.js';

// The host loop's half of function calling: a model's tool_calls → the typed client → role:"tool" messages.
// Chat Completions here, the Responses API in openai-responses.ts. The types are structural and assignable
// to the `openai` package's (6.x/7.x): `tools` and the messages go into its calls without casts.
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters: Readonly<Record<string, unknown>>; readonly strict?: boolean };
}

export interface OpenAiToolsOptions {
  /**
   * Send each tool with `strict: true` and its schema in strict form (strict-schema.ts) when it has one;
   * a tool whose schema cannot be strict goes out with `strict: false`. Dispatch maps the nulls back.
   */
  readonly strict?: boolean;
}

export interface OpenAiFunctionToolCall {
  readonly id: string;
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * One entry of an assistant message's `tool_calls`, as the `openai` package types it (function or custom
 * calls): structural, so generated code never imports `openai`. Calls that are not function calls are
 * answered with a refusal (every tool_call_id needs its tool message), never run.
 */
export type OpenAiToolCall = OpenAiFunctionToolCall | { readonly id: string; readonly type: string };

export interface OpenAiToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * MCP tool definitions as chat-completions `tools` (a mutable array: `openai` types `tools` as one). `parameters` must be plain JSON Schema, so the
 * MCP-only `x-mcp-header` annotations are dropped.
 */
export function toOpenAiTools(tools: readonly Tool[], options: OpenAiToolsOptions = {}): OpenAiTool[] {
  // Names over 64 characters or with dots get provider-safe ones; dispatch maps them back (provider-names.ts).
  const names = providerNames(tools.map((t) => t.name)).toProvider;
  return tools.map((t) => {
    const description = t.description ?? t.title;
    const strict = options.strict === true ? toStrictSchema(t.inputSchema) : undefined;
    const parameters = (strict?.strict === true ? strict.schema : plainSchema(t.inputSchema)) as Record<string, unknown>;
    return { type: 'function', function: { name: names.get(t.name) ?? t.name, ...(description !== undefined ? { description } : {}), parameters, ...(strict !== undefined ? { strict: strict.strict } : {}) } };
  });
}

export type { OpenAiCaller } from './call-tool.js';

/** A tool's input schema as plain JSON Schema: the MCP-only `x-mcp-header` annotations dropped (providers refuse unknown keys). */
export function plainSchema(v: unknown): unknown {
  return Array.isArray(v) ? v.map(plainSchema) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'x-mcp-header').map(([k, x]) => [k, plainSchema(x)])) : v;
}

/**
 * Run each call (in order) and answer each with a tool message. Bad JSON, unknown tools, tool errors
 * and calls of other kinds than "function" become messages the model can read, never exceptions that
 * end the host loop.
 */
export async function dispatchToolCalls(callers: Readonly<Record<string, OpenAiCaller>>, calls: readonly OpenAiToolCall[], tools?: readonly Tool[]): Promise<OpenAiToolMessage[]> {
  const out: OpenAiToolMessage[] = [];
  for (const call of calls) {
    const content = 'function' in call && (call.type === undefined || call.type === 'function') ? await runToolCall(callers, call.function.name, call.function.arguments, tools) : refusal(call.type);
    out.push({ role: 'tool', tool_call_id: call.id, content });
  }
  return out;
}

/** The answer to a call this bridge does not run (only function tools are declared). */
export function refusal(kind: string | undefined): string {
  return JSON.stringify({ error: `${kind ?? 'this'} tool calls are not supported: only function tools are available` });
}

/** One function call by name with its JSON arguments text → the text the model reads (errors included). */
export async function runToolCall(callers: Readonly<Record<string, OpenAiCaller>>, providerName: string, argumentsText: string, tools?: readonly Tool[]): Promise<string> {
  let args: unknown;
  try {
    args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch {
    // An unknown tool is named as such even when its arguments are broken too.
    if (!Object.hasOwn(callers, mcpToolName(callers, providerName))) return JSON.stringify({ error: `unknown tool ${providerName}` });
    return JSON.stringify({ error: 'arguments are not valid JSON' });
  }
  const answer = await callTool(callers, providerName, args, tools);
  return answer.isError ? JSON.stringify({ error: answer.text }) : answer.text;
}
