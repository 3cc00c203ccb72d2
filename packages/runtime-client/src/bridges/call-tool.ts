// The part every provider bridge shares: a provider's function name and arguments → the MCP tool, called
// through the typed client. The provider name is mapped back with the same pure mapping the tools were
// declared with; nulls a strict-mode model sent for "not given" become absent again (strict-schema.ts).
import type { Tool } from '@modelcontextprotocol/client';
import { OPENAI_NAMES, providerNames, type NameRule } from './provider-names.js';
import { fromStrictArguments } from './strict-schema.js';

export type OpenAiCaller = (args: unknown) => Promise<{ isError: boolean; content: readonly { type: string; text?: string }[]; structuredContent?: unknown }>;

/** What a call gave, for the provider's answer format: `text` is what the model reads (errors included). */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  /** The tool's structuredContent, when it sent one. */
  readonly structured?: unknown;
}

/** The MCP name of a provider name (itself when it is not one the mapping made). */
export function mcpToolName(callers: Readonly<Record<string, OpenAiCaller>>, providerName: string, rule: NameRule = OPENAI_NAMES): string {
  return providerNames(Object.keys(callers), rule).fromProvider.get(providerName) ?? providerName;
}

/** One call by provider name with parsed arguments; never throws (errors are answers the model can read). */
export async function callTool(callers: Readonly<Record<string, OpenAiCaller>>, providerName: string, input: unknown, tools?: readonly Tool[], rule: NameRule = OPENAI_NAMES): Promise<ToolAnswer> {
  const name = mcpToolName(callers, providerName, rule);
  const caller = Object.hasOwn(callers, name) ? callers[name] : undefined;
  if (caller === undefined) return { isError: true, text: `unknown tool ${providerName}` };
  const schema = tools?.find((t) => t.name === name)?.inputSchema;
  const args = schema !== undefined ? fromStrictArguments(schema, input) : input;
  try {
    const result = await caller(args);
    const text = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
    return { isError: result.isError, text, ...(result.structuredContent !== undefined ? { structured: result.structuredContent } : {}) };
  } catch (e) {
    return { isError: true, text: e instanceof Error ? e.message : String(e) };
  }
}
