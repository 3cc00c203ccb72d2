// The shape of a spec once it has passed schema/mcpgen.schema.json. Kept in step with that file.
export type JsonSchema = { readonly [key: string]: unknown } | boolean;
export type JsonObjectSchema = { readonly [key: string]: unknown };
/** A JSON object value (arguments, a result), not a schema. */
export type JsonObject = { readonly [key: string]: unknown };

export interface RawIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

export interface RawCacheHint {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}

export interface RawServer {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly instructions?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly RawIcon[];
  readonly _meta?: RawMeta;
}

export interface RawElicit {
  readonly mode?: 'form' | 'url';
  readonly message: string;
  readonly schema?: JsonObjectSchema;
  readonly url?: string;
}

export interface RawToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  /** Other keys (published servers send `category`, `conditions`…): carried to the wire, MCPG112 warns. */
  readonly [other: string]: unknown;
}

/** MCP `_meta` as the spec writes it (sent as written). */
export type RawMeta = Readonly<Record<string, unknown>>;

export interface RawTool {
  readonly _meta?: RawMeta;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly input?: JsonObjectSchema;
  readonly output?: JsonObjectSchema;
  readonly annotations?: RawToolAnnotations;
  readonly icons?: readonly RawIcon[];
  readonly elicit?: { readonly [key: string]: RawElicit };
  readonly progress?: boolean;
  readonly timeoutMs?: number;
  /** tools/call of this tool per caller, `<requests>/<duration>` (MCPG150). */
  readonly rateLimit?: string;
  readonly scopes?: readonly string[];
  /** MCP Apps: the ui:// resource of the tool's view (a string is `{ resource }`). */
  readonly ui?: string | RawToolUi;
  /** Runs as a task (io.modelcontextprotocol/tasks): the support level alone, or the full settings. */
  readonly task?: RawTaskSupport | RawTask;
  /** Answered by calling an operation of the spec's `upstream:` HTTP API (no handler needed). */
  readonly http?: RawHttpBinding;
  /** Calls and what they answer (MCPG200–202; run first by `mcpgen test`). */
  readonly examples?: readonly RawToolExample[];
}

/** A tool's `examples:` entry: `result` is a part of structuredContent the answer must contain. */
export interface RawToolExample {
  readonly name?: string;
  readonly description?: string;
  readonly arguments?: JsonObject;
  readonly result?: JsonObject;
  readonly isError?: boolean;
}

/** A prompt's `examples:` entry: `messages` is what prompts/get must answer, message by message a part of each. */
export interface RawPromptExample {
  readonly name?: string;
  readonly description?: string;
  readonly arguments?: { readonly [name: string]: string };
  readonly messages?: readonly JsonObject[];
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
export type HttpParamLocation = 'path' | 'query' | 'header' | 'cookie';

/** A tool's `http:`: the operation it calls and where each input property goes. */
export interface RawHttpBinding {
  readonly method: HttpMethod;
  readonly path: string;
  /** By input property: its location alone, or the full form. */
  readonly params?: { readonly [property: string]: HttpParamLocation | RawHttpParam };
  /** The input property sent as the body: its name (JSON), or the full form. */
  readonly body?: string | RawHttpBody;
  /** `upstream.security` scheme names; absent: every scheme. */
  readonly security?: readonly string[];
}

export interface RawHttpParam {
  readonly in: HttpParamLocation;
  readonly name?: string;
  readonly style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  readonly explode?: boolean;
  /** Query only: the value as one JSON text (OpenAPI 3 `content` on a parameter). */
  readonly contentType?: 'application/json';
}

export interface RawHttpBody {
  readonly property: string;
  readonly contentType?: string;
  readonly files?: readonly string[];
}

/** `upstream:` — the HTTP API bound tools call. In the root file and in includes (merged: upstream.ts). */
export interface RawUpstream {
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly retries?: number;
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  readonly security?: { readonly [scheme: string]: RawUpstreamScheme };
}

export interface RawUpstreamScheme {
  readonly type: 'apiKey' | 'bearer' | 'basic' | 'oauth2';
  readonly in?: 'header' | 'query' | 'cookie';
  readonly name?: string;
  readonly tokenUrl?: string;
  readonly env?: string;
}

export type RawTaskSupport = 'never' | 'optional' | 'required';

export interface RawTask {
  readonly support?: RawTaskSupport;
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
  readonly beforeTask?: readonly string[];
  readonly retry?: { readonly max: number; readonly backoffMs?: number };
}

export type UiVisibility = 'model' | 'app';

export interface RawToolUi {
  readonly resource: string;
  readonly visibility?: readonly UiVisibility[];
}

export type UiPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

export interface RawUiCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** `apps:` — an MCP Apps view: a ui:// resource whose HTML comes from a file beside the spec. */
export interface RawApp {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly html: string;
  readonly csp?: RawUiCsp;
  readonly permissions?: readonly UiPermission[];
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

export interface RawResource {
  readonly _meta?: RawMeta;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: readonly RawIcon[];
  readonly cache?: RawCacheHint;
  readonly scopes?: readonly string[];
}

export interface RawResourceTemplate {
  readonly _meta?: RawMeta;
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly RawIcon[];
  readonly cache?: RawCacheHint;
  readonly scopes?: readonly string[];
}

export interface RawPromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface RawPrompt {
  readonly _meta?: RawMeta;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly RawIcon[];
  readonly arguments?: readonly RawPromptArgument[];
  readonly scopes?: readonly string[];
  readonly examples?: readonly RawPromptExample[];
}

export type RawCapabilityFlag<T> = boolean | T;

export interface RawCapabilities {
  readonly tools?: RawCapabilityFlag<{ readonly listChanged?: boolean }>;
  readonly resources?: RawCapabilityFlag<{ readonly subscribe?: boolean; readonly listChanged?: boolean }>;
  readonly prompts?: RawCapabilityFlag<{ readonly listChanged?: boolean }>;
  readonly completions?: boolean;
}

/** `auth:` — OAuth 2.1 for the HTTP transport. */
export interface RawAuth {
  readonly authorizationServers?: readonly string[];
  readonly resource?: string;
  readonly scopes?: { readonly [scope: string]: string };
  readonly requiredScopes?: readonly string[];
  readonly resourceName?: string;
  readonly documentation?: string;
}

/** A spec file (the root file, or one pulled in by `include:`). */
export interface RawSpecFile {
  readonly mcpgen?: 1;
  readonly server?: RawServer;
  readonly protocol?: { readonly version?: '2026-07-28'; readonly legacy?: boolean };
  readonly capabilities?: RawCapabilities;
  readonly cache?: RawCacheHint;
  /** Server-wide rate limit per caller, `<requests>/<duration>` (MCPG150). */
  readonly rateLimit?: string;
  readonly auth?: RawAuth;
  /** The HTTP API of the tools bound with `http:`; root or include (merged). */
  readonly upstream?: RawUpstream;
  readonly $defs?: { readonly [name: string]: JsonSchema };
  readonly include?: readonly string[];
  /** Merge patches of entries declared in other files, by kind and declared key (validate/overrides.ts). Root file only. */
  readonly overrides?: RawOverrides;
  readonly tools?: readonly RawTool[];
  readonly resources?: readonly RawResource[];
  readonly resourceTemplates?: readonly RawResourceTemplate[];
  readonly prompts?: readonly RawPrompt[];
  readonly apps?: readonly RawApp[];
  /** Folder of skills (SEP-2640), relative to the spec file. Root file only. */
  readonly skills?: string;
  /** Named groups a deployment chooses from (docs/toolsets.md). Root file only. */
  readonly toolsets?: { readonly [name: string]: RawToolset };
  /** Dynamic discovery (docs/toolsets.md#dynamic-discovery). Root file only. */
  readonly discovery?: { readonly initial?: readonly string[] };
}

/** `overrides:` — per kind, the entry's declared name (URI, URI template; `$defs` by name) → an RFC 7396 merge patch, or null to drop it. */
export type RawOverrides = { readonly [K in OverridableKind | '$defs']?: { readonly [key: string]: { readonly [key: string]: unknown } | null } };
export type OverridableKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** `toolsets.<name>`: members by tool name, resource URI, template and prompt name. */
export interface RawToolset {
  readonly description?: string;
  readonly default?: boolean;
  readonly tools?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceTemplates?: readonly string[];
  readonly prompts?: readonly string[];
}
