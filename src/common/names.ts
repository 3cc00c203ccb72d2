// How spec names become TypeScript identifiers. Shared by the validator (collision checks) and the
// model (the names emitters use), so both always agree.

const RESERVED = new Set(
  `break case catch class const continue debugger default delete do else enum export extends false finally for function if
  import in instanceof new null return super switch this throw true try typeof var void while with yield let static
  implements interface package private protected public await async arguments eval undefined NaN Infinity`.split(/\s+/),
);

/**
 * Method names generated objects must not have: every Object.prototype member (a handler or client
 * method would shadow it; `in` and dispatch lookups would find the inherited one), and `then`, which
 * would make a client or handlers object a thenable that `await` calls.
 */
const NOT_METHODS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'then']);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

export function pascalCase(name: string): string {
  const out = words(name).map((w) => capitalize(w.toLowerCase() === w ? w : w.charAt(0) + w.slice(1))).join('');
  return safeStart(out === '' ? 'Unnamed' : out);
}

export function camelCase(name: string): string {
  const p = words(name).map(capitalize).join('');
  const out = p.charAt(0).toLowerCase() + p.slice(1);
  return safe(out === '' ? 'unnamed' : out);
}

function safeStart(id: string): string {
  return /^[0-9]/.test(id) ? `_${id}` : id;
}

/** Reserved words (and prototype members, which break `in` checks and objects) get a trailing underscore. */
export function safe(id: string): string {
  const s = safeStart(id);
  return RESERVED.has(s) || NOT_METHODS.has(s) ? `${s}_` : s;
}

/**
 * Members of the client base class (@mcpgen/runtime-client McpgenClient) and the handlers interface's own
 * `complete` (completions): generated methods avoid them.
 */
export const CLIENT_MEMBERS = new Set(['close', 'connect', 'open', 'sdk', 'listen', 'listAllTools', 'listTools', 'listResources', 'listResourceTemplates', 'listPrompts', 'discover', 'raw', 'callTool', 'readResource', 'readTemplate', 'getPrompt', 'options', 'complete', 'readToolUi', 'startTool', 'startTask']);
// McpgenClient.skills (SEP-2640): a tool named "skills" becomes `skills_`.
CLIENT_MEMBERS.add('skills');

function clientSafe(id: string): string {
  return CLIENT_MEMBERS.has(id) || NOT_METHODS.has(id) ? `${id}_` : id;
}

export function toolMethodName(toolName: string): string {
  return clientSafe(camelCase(toolName));
}

export function promptMethodName(promptName: string): string {
  return clientSafe(`prompt${pascalCase(promptName)}`);
}

export function resourceMethodName(resourceName: string): string {
  return clientSafe(`read${pascalCase(resourceName)}`);
}

export function typeName(name: string, suffix = ''): string {
  return `${pascalCase(name)}${suffix}`;
}

/** Type of the accepted answer to a tool's form elicitation (`ctx.elicit.<key>.response.content`). */
export function elicitContentType(toolName: string, key: string): string {
  return typeName(`${toolName}_${key}`, 'Content');
}

/** Is `name` usable as a bare property name in TypeScript (otherwise it must be quoted)? */
export function isIdentifierName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** Exported names derived from the server's name (server.ts, client.ts, openai.ts, anthropic.ts, gemini.ts); index.ts re-exports the server's and client's. */
export function stemNames(stem: string) {
  return {
    handlers: `${stem}Handlers`,
    factory: `create${stem}Server`,
    client: `${stem}Client`,
    dispatcher: `dispatch${stem}ToolCalls`,
    functionCallDispatcher: `dispatch${stem}FunctionCalls`,
    toolUseDispatcher: `dispatch${stem}ToolUses`,
    geminiDispatcher: `dispatch${stem}GeminiCalls`,
    toolsets: `${stem}Toolsets`,
    toolset: `${stem}Toolset`,
    clientFor: `${stem}ClientFor`,
    ownHandlers: `${stem}OwnHandlers`,
    boundMethod: `${stem}BoundMethod`,
    proxy: `${stem.charAt(0).toLowerCase()}${stem.slice(1)}Proxy`,
  };
}

/**
 * Every name generated files import from mcpgen's runtime (server.ts, client.ts, openai.ts, main.ts):
 * a generated declaration must not take one of them (a server named "mcpgen" would declare
 * `createMcpgenServer` and `McpgenClient`). The generator fuzzer checks this list against the output.
 */
export const RUNTIME_IMPORTS: ReadonlySet<string> = new Set([
  'createMcpgenServer', 'runMain', 'entryArgsOrExit', 'exposureOrExit', 'serverOptionsFromEnv', 'Awaitable', 'InputRequiredReply', 'McpgenServer', 'ServerOptions', 'ToolContext', 'ToolReturn', 'ContentToolReturn',
  'RequestContext', 'ResourceReply', 'PromptReply', 'CompleteRequestParams', 'ServerDefinition',
  'McpgenClient', 'CallOptions', 'ClientOptions', 'ClientTarget', 'ToolCallResult', 'ReadResourceResult', 'GetPromptResult',
  'dispatchToolCalls', 'OpenAiTool', 'OpenAiToolCall', 'OpenAiToolMessage', 'toOpenAiTools',
  'dispatchFunctionCalls', 'OpenAiResponseItem', 'OpenAiResponsesOutput', 'OpenAiResponsesTool', 'toOpenAiResponsesTools',
  'dispatchToolUses', 'AnthropicContentBlock', 'AnthropicTool', 'AnthropicToolResult', 'toAnthropicTools',
  'dispatchGeminiCalls', 'GeminiFunctionCall', 'GeminiFunctionDeclaration', 'GeminiFunctionResponsePart', 'GeminiTool', 'toGeminiFunctionDeclarations',
  'httpProxy', 'HttpBinding', 'HttpProxyOptions',
]);

/** The names the spec format allowed before `server.name` became free text: used as they are. */
const FOLDER_SAFE = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * The output folder (and handlers `{server}`) of a server: MCP's Implementation.name is free text
 * (`Notion API`, `mcp-servers/everything`), a folder name is not. Names that were already safe are kept
 * byte for byte (existing generated/ folders stay where they are); others are lower-cased with each run
 * of other characters made one `-` (`notion-api`, `mcp-servers-everything`).
 */
export function serverFolder(name: string): string {
  if (FOLDER_SAFE.test(name)) return name;
  const slug = name.toLowerCase().replace(/[^a-z0-9_.]+/g, '-').replace(/^[^a-z]+/, '').replace(/[-.]+$/, '');
  return slug === '' ? 'server' : slug;
}
