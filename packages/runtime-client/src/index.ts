// @mcpgen/runtime-client: what generated clients build on (kept out of the server runtime, so a service
// that deploys only its server never installs the client SDK).
export { McpgenClient, HEADER_MISMATCH, type CallOptions, type ChangeNotification, type ClientOptions, type ClientTarget, type ElicitAnswer, type ElicitRequestInfo, type ListenFilter, type Subscription, type ToolCallResult } from './client/base-client.js';
export type { ConnectionRetry } from './transport/replay-fetch.js';
export { RateLimitError } from './transport/rate-limit.js';
export type { ClientOpenTelemetryApi } from './transport/client-spans.js';
export { TaskCancelledError, TASKS_EXTENSION, type TaskHandle, type TaskRequestOptions, type TaskState, type TaskStatus, type ToolStart } from './tasks/tasks.js';
export { finishAuthorization, type AuthorizationResponseSource, type ClientAuthOptions } from './auth/oauth-fetch.js';
export { authorizationCode, clientCredentials, privateKeyJwt, type AuthorizationCodeOptions, type AuthorizationCodeProvider, type ClientCredentialsOptions, type PrivateKeyJwtOptions } from './auth/oauth-providers.js';
export { InsufficientScopeError, ProtocolError, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
export { providerNames, isProviderSafeName, type ProviderNames } from './bridges/provider-names.js';
export { fromStrictArguments, toStrictSchema, type StrictNote, type StrictSchema } from './bridges/strict-schema.js';
export { dispatchToolCalls, toOpenAiTools, type OpenAiToolsOptions, type OpenAiFunctionToolCall, type OpenAiTool, type OpenAiToolCall, type OpenAiToolMessage } from './bridges/openai.js';
export { dispatchGeminiCalls, toGeminiFunctionDeclarations, type GeminiFunctionCall, type GeminiFunctionDeclaration, type GeminiFunctionResponsePart, type GeminiTool } from './bridges/gemini.js';
export { fromGeminiArguments, toGeminiSchema } from './bridges/gemini-schema.js';
export { dispatchToolUses, toAnthropicTools, type AnthropicContentBlock, type AnthropicTool, type AnthropicToolResult } from './bridges/anthropic.js';
export { dispatchFunctionCalls, toOpenAiResponsesTools, type OpenAiCustomToolCallOutput, type OpenAiFunctionCallOutput, type OpenAiResponseItem, type OpenAiResponsesOutput, type OpenAiResponsesTool } from './bridges/openai-responses.js';
export { encodeHeaderValue, decodeHeaderValue, paramHeadersFor, type HeaderDeclaration } from '@mcpgen/runtime/shared';
export type { Tool, ContentBlock, CallToolResult, ReadResourceResult, GetPromptResult, PromptMessage } from '@modelcontextprotocol/client';
export { uiResourceOf, type UiResource, type UiResourceMeta } from './extensions/ui-resource.js';
export { UI_EXTENSION_ID, UI_MIME_TYPE } from '@mcpgen/runtime/shared';
export { McpgenSkills, skillsClientFor, type LoadedSkill } from './extensions/skills.js';
export { SkillVerificationError, type Skill, type SkillFile, type SkillListing, type SkillVerificationReason } from '@modelcontextprotocol/client/ext/skills';
