// @mcpgen/runtime/server: what generated servers build on (the official SDK does the protocol).
export { createServerFactory, type HandlerTable, type ServerFactory, type ServerOptions } from './create-server.js';
export { AuthUnavailableError, InvalidTokenError, type AuthOptions, type AuthPrincipal, type TokenVerifier } from './auth.js';
export { createJwtVerifier } from './jwt-verifier.js';
export type { AuthSpec, CacheHintSpec, ElicitSpec, PromptSpec, ResourceSpec, ResourceTemplateSpec, ServerDefinition, ToolSpec } from './definition.js';
export type { ChangeNotifier, Elicitation, ElicitResponse, InputRequest, RequestContext, ToolContext } from './context.js';
export { createHttpHandler, type HttpHandler, type HttpOptions } from './http.js';
export { listen, type ListenOptions, type RunningServer } from './node-http.js';
export { inputRequiredReply, notFound, protocolError, PublicError, reply, toolError, type InputRequiredReply, type PromptReply, type ResourceReply, type ToolReply, type ToolReturn, type ContentToolReturn } from './replies.js';
export { serveStdio } from './stdio.js';
export { realPathInRoot, resolveInRoot } from './paths.js';
export { createRedisEventBus, type RedisEventBus, type RedisEventBusOptions, type RedisEventBusStats } from './redis-bus.js';
export { createRedisTaskStore, type RedisTaskStore, type RedisTaskStoreOptions } from './tasks/redis-store.js';
export { RequestStateKeyRing, InvalidRequestState, type RequestStateKey } from './request-state.js';
export { serverOptionsFromEnv } from './env-options.js';
export type { HeaderDeclaration } from '../shared/header-values.js';
export { createMcpgenServer, runMain, type Awaitable, type McpgenServer } from './mcpgen-server.js';
export type { CompleteRequestParams, ContentBlock, PromptMessage } from '@modelcontextprotocol/server';
export { MissingRequiredClientCapabilityError, ProtocolError } from '@modelcontextprotocol/server';
