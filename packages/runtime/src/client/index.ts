// mcpgen/runtime/client: what generated clients build on.
export { McpgenClient, HEADER_MISMATCH, type CallOptions, type ChangeNotification, type ClientOptions, type ClientTarget, type ElicitAnswer, type ElicitRequestInfo, type ListenFilter, type Subscription, type ToolCallResult } from './base-client.js';
export type { ConnectionRetry } from './replay-fetch.js';
export { dispatchToolCalls, toOpenAiTools, type OpenAiTool, type OpenAiToolCall, type OpenAiToolMessage } from './openai.js';
export { encodeHeaderValue, decodeHeaderValue, paramHeadersFor, type HeaderDeclaration } from '../shared/header-values.js';
export type { Tool, ContentBlock, CallToolResult, ReadResourceResult, GetPromptResult, PromptMessage } from '@modelcontextprotocol/client';
