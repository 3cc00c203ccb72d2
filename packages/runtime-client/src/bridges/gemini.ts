// Gemini's half of function calling (@google/genai `models.generateContent({ config: { tools } })`): tools
// are `{ functionDeclarations }`, the model's calls are `response.functionCalls` and the answers
// `functionResponse` parts of the next user turn. Structural types, assignable to @google/genai's, so
// generated code never imports it. The schema goes in `parametersJsonSchema`: the SDK types
// `parameters.type` as its own enum, which no structural type matches; the content is the subset
// Gemini's `Schema` has (gemini-schema.ts), so both of Gemini's schema paths take it.
import type { Tool } from '@modelcontextprotocol/client';
import { callTool, mcpToolName, type OpenAiCaller } from './call-tool.js';
import { fromGeminiArguments, toGeminiSchema } from './gemini-schema.js';
import { GEMINI_NAMES, providerNames } from './provider-names.js';

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parametersJsonSchema: Readonly<Record<string, unknown>>;
}

/** One entry of `config.tools` (a mutable array: the SDK types `functionDeclarations` as one). */
export interface GeminiTool {
  readonly functionDeclarations: GeminiFunctionDeclaration[];
}

/** One of `response.functionCalls`. */
export interface GeminiFunctionCall {
  readonly id?: string;
  readonly name?: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** A part of the next user turn: the answer to one call (`output`, or `error` when the tool failed). */
export interface GeminiFunctionResponsePart {
  readonly functionResponse: { readonly id?: string; readonly name: string; readonly response: Record<string, unknown> };
}

/** MCP tool definitions as Gemini function declarations (names: a letter or `_` first, ≤ 64 of [A-Za-z0-9_.:-]). */
export function toGeminiFunctionDeclarations(tools: readonly Tool[]): GeminiFunctionDeclaration[] {
  const names = providerNames(tools.map((t) => t.name), GEMINI_NAMES).toProvider;
  return tools.map((t) => {
    const description = t.description ?? t.title;
    return { name: names.get(t.name) ?? t.name, ...(description !== undefined ? { description } : {}), parametersJsonSchema: toGeminiSchema(t.inputSchema) };
  });
}

/**
 * Run each call (in order), each answered with a `functionResponse` part (errors included, never thrown):
 * `{ output }` carries the tool's structuredContent or its text, `{ error }` what went wrong. With `tools`,
 * renamed property names get their MCP names back first (gemini-schema.ts), so the handler receives what a
 * plain MCP call gives.
 */
export async function dispatchGeminiCalls(callers: Readonly<Record<string, OpenAiCaller>>, calls: readonly GeminiFunctionCall[] | undefined, tools?: readonly Tool[]): Promise<GeminiFunctionResponsePart[]> {
  const out: GeminiFunctionResponsePart[] = [];
  for (const call of calls ?? []) {
    const name = call.name ?? '';
    const schema = tools?.find((t) => t.name === mcpToolName(callers, name, GEMINI_NAMES))?.inputSchema;
    const args = schema !== undefined ? fromGeminiArguments(schema, call.args ?? {}) : (call.args ?? {});
    const answer = await callTool(callers, name, args, tools, GEMINI_NAMES);
    const response = answer.isError ? { error: answer.text } : { output: answer.structured ?? answer.text };
    out.push({ functionResponse: { ...(call.id !== undefined ? { id: call.id } : {}), name, response } });
  }
  return out;
}
