import type { Tool } from '@modelcontextprotocol/client';
import { providerNames } from './provider-names.js';
import { fromStrictArguments, toStrictSchema } from './strict-schema.js';

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
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'x-mcp-header').map(([k, x]) => [k, strip(x)])) : v;
  // Names over 64 characters or with dots get provider-safe ones; dispatch maps them back (provider-names.ts).
  const names = providerNames(tools.map((t) => t.name)).toProvider;
  return tools.map((t) => {
    const description = t.description ?? t.title;
    const strict = options.strict === true ? toStrictSchema(t.inputSchema) : undefined;
    const parameters = (strict?.strict === true ? strict.schema : strip(t.inputSchema)) as Record<string, unknown>;
    return { type: 'function', function: { name: names.get(t.name) ?? t.name, ...(description !== undefined ? { description } : {}), parameters, ...(strict !== undefined ? { strict: strict.strict } : {}) } };
  });
}

export type OpenAiCaller = (args: unknown) => Promise<{ isError: boolean; content: readonly { type: string; text?: string }[]; structuredContent?: unknown }>;

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
  // The provider name back to the MCP one: the same pure mapping toOpenAiTools used, over the same names.
  const name = providerNames(Object.keys(callers)).fromProvider.get(providerName) ?? providerName;
  const caller = Object.hasOwn(callers, name) ? callers[name] : undefined;
  if (caller === undefined) return JSON.stringify({ error: `unknown tool ${providerName}` });
  let args: unknown;
  try {
    args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch {
    return JSON.stringify({ error: 'arguments are not valid JSON' });
  }
  // With the definitions, nulls a strict-mode model sent for "not given" become absent again.
  const schema = tools?.find((t) => t.name === name)?.inputSchema;
  if (schema !== undefined) args = fromStrictArguments(schema, args);
  try {
    const result = await caller(args);
    const text = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
    return result.isError ? JSON.stringify({ error: text }) : text;
  } catch (e) {
    return JSON.stringify({ error: e instanceof Error ? e.message : String(e) });
  }
}
