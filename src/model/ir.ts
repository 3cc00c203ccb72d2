// The intermediate representation every emitter reads. Read-only, tagged, sorted where order is free,
// and carrying a `label` for messages. Built only from a spec that validated without errors.
import type { TemplateVariable } from '@mcpgen/runtime/shared/uri-template';
import type { JsonObjectSchema, JsonSchema, RawIcon, RawUiCsp, UiPermission, UiVisibility } from '../validate/spec-types.js';

export interface CacheHintModel {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

export interface ServerModel {
  readonly kind: 'server';
  readonly label: string;
  /** Root spec file as given on the command line / in the config (for banners). */
  readonly specFile: string;
  /** sha256 over the root file and its includes, in order: the banner's staleness key. */
  readonly specHash: string;
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly instructions?: string;
  readonly websiteUrl?: string;
  readonly icons: readonly RawIcon[];
  /** The spec's server `_meta`: the initialize and server/discover results carry it. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The output folder and `{server}` of the handlers path: `name` itself when it is already a safe folder name (serverFolder). */
  readonly folder: string;
  /** PascalCase stem for generated names: `weather` → `Weather` (`WeatherHandlers`, `createWeatherServer`). */
  readonly typeStem: string;
  readonly protocolVersion: '2026-07-28';
  readonly legacy: boolean;
  readonly capabilities: CapabilitiesModel;
  /** Hints for server/discover and all list results. */
  readonly listCache: CacheHintModel;
  readonly tools: readonly ToolModel[];
  readonly resources: readonly ResourceModel[];
  readonly resourceTemplates: readonly ResourceTemplateModel[];
  readonly prompts: readonly PromptModel[];
  readonly defs: readonly DefModel[];
  /** The spec's `auth:` (HTTP bearer tokens); absent: the server is open. */
  readonly auth?: AuthModel;
  /** MCP Apps views (io.modelcontextprotocol/ui), in spec order; non-empty: server/discover announces the extension. */
  readonly apps: readonly AppModel[];
  /** The files of the spec's `skills:` folder (SEP-2640), embedded into the generated server. */
  readonly skills?: readonly SkillFileModel[];
  /** Named groups a deployment chooses from, in spec order (empty: everything is always exposed). */
  readonly toolsets: readonly ToolsetModel[];
  /** The spec's `rateLimit`s: server-wide and per tool (by tool name); absent when none is declared. */
  readonly rateLimits?: RateLimitsModel;
  /** `discovery:` (docs/toolsets.md#dynamic-discovery): the toolsets every caller starts with, resolved. */
  readonly discovery?: { readonly initial: readonly string[] };
  /** The HTTP API of the tools bound with `http:`; present when at least one tool is. */
  readonly upstream?: UpstreamModel;
}

/** `upstream:` merged over the spec's files, with what the spec leaves to defaults resolved. */
export interface UpstreamModel {
  readonly baseUrl?: string;
  /** `<SERVER>_BASE_URL`: replaces `baseUrl` at run time. */
  readonly baseUrlEnv: string;
  /** The security schemes by spec name, each with the environment variable its secret comes from. */
  readonly schemes: readonly { readonly id: string; readonly auth: UpstreamAuthModel }[];
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly retries?: number;
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
}

/** One scheme as the runtime proxy's `HttpAuth` takes it. */
export type UpstreamAuthModel =
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string; readonly env: string }
  | { readonly type: 'bearer' | 'basic'; readonly env: string }
  | { readonly type: 'oauth2'; readonly tokenUrl: string; readonly env: string };

/** A tool's `http:` in the runtime proxy's terms (`HttpBinding`), security still by scheme name. */
export interface HttpBindingModel {
  readonly method: string;
  readonly path: string;
  readonly params: readonly { readonly arg: string; readonly name: string; readonly in: 'path' | 'query' | 'header' | 'cookie'; readonly style?: string; readonly explode?: boolean; readonly contentType?: string }[];
  readonly body?: { readonly arg: string; readonly contentType: string; readonly files?: readonly string[] };
  /** `upstream.security` names; absent: every scheme. */
  readonly security?: readonly string[];
}

/** A rate per caller. */
export interface RateModel {
  readonly points: number;
  readonly durationSeconds: number;
}

export interface RateLimitsModel {
  readonly server?: RateModel;
  readonly tools?: Readonly<Record<string, RateModel>>;
}

/** A `toolsets:` entry: members by tool name, resource URI, URI template and prompt name. */
export interface ToolsetModel {
  readonly kind: 'toolset';
  readonly label: string;
  readonly name: string;
  readonly description?: string;
  /** Exposed when the deployment chooses no toolsets. */
  readonly default: boolean;
  readonly tools: readonly string[];
  readonly resources: readonly string[];
  readonly resourceTemplates: readonly string[];
  readonly prompts: readonly string[];
}

/** An MCP Apps view: a ui:// resource whose HTML was read from the spec's project at generate time. */
export interface AppModel {
  readonly kind: 'app';
  readonly label: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly html: string;
  /** The HTML file as given in the spec (for docs and messages). */
  readonly htmlFile: string;
  readonly csp?: RawUiCsp;
  readonly permissions: readonly UiPermission[];
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** A tool's `_meta.ui`: where its view is, and who may call it. */
export interface ToolUiModel {
  readonly resourceUri: string;
  readonly visibility?: readonly UiVisibility[];
}

/** One skill file: `path` relative to the skills folder; UTF-8 text as `text`, other bytes as `base64`. */
export type SkillFileModel = { readonly path: string } & ({ readonly text: string } | { readonly base64: string });

export interface AuthModel {
  readonly authorizationServers: readonly string[];
  readonly resource?: string;
  /** Declared scopes with their descriptions, in spec order. */
  readonly scopes: readonly { readonly name: string; readonly description: string }[];
  readonly requiredScopes: readonly string[];
  readonly resourceName?: string;
  readonly documentation?: string;
}

export interface CapabilitiesModel {
  readonly tools?: { readonly listChanged: boolean };
  readonly resources?: { readonly subscribe: boolean; readonly listChanged: boolean };
  readonly prompts?: { readonly listChanged: boolean };
  readonly completions: boolean;
}

export interface HeaderModel {
  /** The x-mcp-header value: the header is `Mcp-Param-${header}`. */
  readonly header: string;
  /** Property names from the input root to the argument. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export interface ElicitModel {
  readonly key: string;
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly schema?: JsonObjectSchema;
  readonly url?: string;
  /** Type name of the accepted content (form mode). */
  readonly contentType?: string;
}

export interface ToolAnnotationsModel {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  readonly [other: string]: unknown;
}

export interface ToolModel {
  /** The spec's `_meta`, sent as written (generated keys such as MCP Apps' `ui` are added over it). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly kind: 'tool';
  readonly label: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Handler and client method name. */
  readonly method: string;
  /** What the handler gets: the input with its defaults filled in. */
  readonly inputType: string;
  /** What a client sends: defaulted properties optional, optional ones also `undefined`. */
  readonly argumentsType: string;
  readonly outputType?: string;
  /** Exactly what goes on the wire in tools/list: the spec's schema with the spec `$defs` it uses bundled in. */
  readonly inputSchema: JsonObjectSchema;
  readonly outputSchema?: JsonObjectSchema;
  readonly annotations?: ToolAnnotationsModel;
  readonly icons: readonly RawIcon[];
  readonly headers: readonly HeaderModel[];
  readonly elicit: readonly ElicitModel[];
  readonly progress: boolean;
  readonly timeoutMs?: number;
  /** Scopes a token needs to call it (empty: none beyond `auth.requiredScopes`). */
  readonly scopes: readonly string[];
  /** MCP Apps: the tool's view. */
  readonly ui?: ToolUiModel;
  /** Present when the tool can run as a task (`task:` other than `never`), defaults filled in. */
  readonly task?: TaskModel;
  /** Answered by the upstream proxy (`http:`): no handler needed, a written one wins. */
  readonly http?: HttpBindingModel;
  /** The spec's `examples:`, in spec order (validated: MCPG200–202). */
  readonly examples: readonly ToolExampleModel[];
}

/** A tool example: a call and what its answer must hold (`mcpgen test` runs it first; the README shows it). */
export interface ToolExampleModel {
  /** `example "name"`, or `example 2` by position: how reports name it. */
  readonly label: string;
  readonly name?: string;
  readonly description?: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The part of structuredContent the answer must contain (objects key by key, arrays item by item). */
  readonly result?: Readonly<Record<string, unknown>>;
  /** The answer must be a tool error (true), or a result that is not one (false, the default). */
  readonly isError: boolean;
}

/** A prompt example: string arguments and, when given, what each message of the answer must contain. */
export interface PromptExampleModel {
  readonly label: string;
  readonly name?: string;
  readonly description?: string;
  readonly arguments: Readonly<Record<string, string>>;
  readonly messages?: readonly Readonly<Record<string, unknown>>[];
}

export interface TaskModel {
  readonly support: 'optional' | 'required';
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** `elicit` keys gathered by MRTR rounds before the task is created. */
  readonly beforeTask: readonly string[];
  /** Re-runs after a lost worker, as written in the spec (the runtime applies the idempotentHint default). */
  readonly retry?: { readonly max: number; readonly backoffMs: number };
}

export interface ResourceModel {
  /** The spec's `_meta`, sent as written (generated keys such as MCP Apps' `ui` are added over it). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly kind: 'resource';
  readonly label: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons: readonly RawIcon[];
  readonly method: string;
  readonly cache?: CacheHintModel;
  readonly scopes: readonly string[];
}

export interface ResourceTemplateModel {
  /** The spec's `_meta`, sent as written (generated keys such as MCP Apps' `ui` are added over it). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly kind: 'resourceTemplate';
  readonly label: string;
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons: readonly RawIcon[];
  readonly method: string;
  readonly variablesType: string;
  readonly variables: readonly TemplateVariable[];
  readonly cache?: CacheHintModel;
  readonly scopes: readonly string[];
}

export interface PromptArgumentModel {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
  /** `required` as the spec wrote it: prompts/list sends `required: false` when written (MCP PromptArgument). */
  readonly requiredWritten?: boolean;
}

export interface PromptModel {
  /** The spec's `_meta`, sent as written (generated keys such as MCP Apps' `ui` are added over it). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly kind: 'prompt';
  readonly label: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons: readonly RawIcon[];
  readonly method: string;
  readonly argsType: string;
  readonly arguments: readonly PromptArgumentModel[];
  readonly scopes: readonly string[];
  /** The spec's `examples:`, in spec order. */
  readonly examples: readonly PromptExampleModel[];
}

export interface DefModel {
  readonly kind: 'def';
  readonly label: string;
  readonly name: string;
  readonly typeName: string;
  readonly schema: JsonSchema;
}
