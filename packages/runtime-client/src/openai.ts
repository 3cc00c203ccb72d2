import type { Tool } from '@modelcontextprotocol/client';

// The host loop's half of function calling: a model's tool_calls → the typed client → role:"tool" messages.
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters: Readonly<Record<string, unknown>> };
}

export interface OpenAiToolCall {
  readonly id: string;
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface OpenAiToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * MCP tool definitions as chat-completions `tools`. `parameters` must be plain JSON Schema, so the
 * MCP-only `x-mcp-header` annotations are dropped.
 */
export function toOpenAiTools(tools: readonly Tool[]): OpenAiTool[] {
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'x-mcp-header').map(([k, x]) => [k, strip(x)])) : v;
  return tools.map((t) => {
    const description = t.description ?? t.title;
    return { type: 'function', function: { name: t.name, ...(description !== undefined ? { description } : {}), parameters: strip(t.inputSchema) as Record<string, unknown> } };
  });
}

type Caller = (args: unknown) => Promise<{ isError: boolean; content: readonly { type: string; text?: string }[]; structuredContent?: unknown }>;

/**
 * Run each call (in order) and answer each with a tool message. Bad JSON, unknown tools and tool
 * errors become messages the model can read, never exceptions that end the host loop.
 */
export async function dispatchToolCalls(callers: Readonly<Record<string, Caller>>, calls: readonly OpenAiToolCall[]): Promise<OpenAiToolMessage[]> {
  const out: OpenAiToolMessage[] = [];
  for (const call of calls) {
    const answer = (content: string) => out.push({ role: 'tool', tool_call_id: call.id, content });
    const caller = Object.hasOwn(callers, call.function.name) ? callers[call.function.name] : undefined;
    if (caller === undefined) {
      answer(JSON.stringify({ error: `unknown tool ${call.function.name}` }));
      continue;
    }
    let args: unknown;
    try {
      args = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
    } catch {
      answer(JSON.stringify({ error: 'arguments are not valid JSON' }));
      continue;
    }
    try {
      const result = await caller(args);
      const text = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
      answer(result.isError ? JSON.stringify({ error: text }) : text);
    } catch (e) {
      answer(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
    }
  }
  return out;
}
