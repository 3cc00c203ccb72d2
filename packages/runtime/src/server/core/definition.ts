// What generated code hands the runtime: the server's wire definitions as data.
import type { Implementation, Prompt, Resource, ResourceTemplateType, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import type { HeaderDeclaration } from '../../shared/header-values.js';

/**
 * A tool as tools/list sends it. Published servers put keys of their own in `annotations` (`category`,
 * `conditions`); MCP's ToolAnnotations is open, the SDK's type lists the five hints only.
 */
export type WireTool = Omit<Tool, 'annotations'> & { annotations?: Tool['annotations'] & Readonly<Record<string, unknown>> };

export interface CacheHintSpec {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

export interface ElicitSpec {
  /**
   * `'form'` or `'url'`. Typed `string`: in generated data an elicitation keyed `toString` (or any other
   * Object.prototype member) gets no contextual type from the record, so its literal widens to string.
   */
  readonly mode: string;
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
  readonly url?: string;
}

export interface ToolSpec {
  /** Exactly what tools/list sends. */
  readonly definition: WireTool;
  /** Key of the handler in the handlers object. */
  readonly method: string;
  readonly headers: readonly HeaderDeclaration[];
  readonly elicit: Readonly<Record<string, ElicitSpec>>;
  readonly timeoutMs?: number;
  /** Scopes a token needs to call the tool (403 insufficient_scope otherwise). */
  readonly scopes?: readonly string[];
  /** Runs as a task (io.modelcontextprotocol/tasks) for clients that declare the extension. */
  readonly task?: TaskSettings;
}

export interface ResourceSpec {
  readonly definition: Resource;
  readonly method: string;
  readonly cache?: CacheHintSpec;
  readonly scopes?: readonly string[];
}

export interface ResourceTemplateSpec {
  readonly definition: ResourceTemplateType;
  readonly method: string;
  readonly cache?: CacheHintSpec;
  readonly scopes?: readonly string[];
}

/** The SDK's Prompt type predates `title` on arguments (2026-07-28 BaseMetadata has it). */
export type PromptDefinition = Omit<Prompt, 'arguments'> & {
  arguments?: (NonNullable<Prompt['arguments']>[number] & { title?: string })[];
};

export interface PromptSpec {
  readonly definition: PromptDefinition;
  readonly method: string;
  readonly scopes?: readonly string[];
}

/** The spec's `auth:` (HTTP only): who issues tokens, which scopes exist, which every request needs. */
export interface AuthSpec {
  /** Issuer URLs of the accepted authorization servers. */
  readonly authorizationServers: readonly string[];
  /** Resource identifier; absent: derived from the request URL at run time. */
  readonly resource?: string;
  /** Scope → description. */
  readonly scopes: Readonly<Record<string, string>>;
  readonly requiredScopes: readonly string[];
  readonly resourceName?: string;
  readonly documentation?: string;
}

export interface ServerDefinition {
  readonly info: Implementation;
  readonly instructions?: string;
  /** The spec's server `_meta`, sent on the initialize and server/discover results. */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly capabilities: ServerCapabilities;
  readonly listCache: CacheHintSpec;
  readonly tools: readonly ToolSpec[];
  readonly resources: readonly ResourceSpec[];
  readonly resourceTemplates: readonly ResourceTemplateSpec[];
  readonly prompts: readonly PromptSpec[];
  /** Present when the spec declares `auth:`: every HTTP request then needs a bearer token. */
  readonly auth?: AuthSpec;
  /** MCP Apps views: served by the runtime itself (no handler), listed with the resources. */
  readonly apps?: readonly AppSpec[];
  /** The spec's `toolsets:` by name; a deployment exposes the chosen ones (core/exposure.ts). */
  readonly toolsets?: Readonly<Record<string, ToolsetSpec>>;
  /** The spec's `rateLimit`s per caller: server-wide and per tool (MCPGEN_RATE_LIMIT… override them). */
  readonly rateLimits?: { readonly server?: RateSpec; readonly tools?: Readonly<Record<string, RateSpec>> };
  /** The spec's `discovery:` (core/discovery.ts): each principal starts with these toolsets and enables more. */
  readonly discovery?: DiscoverySpec;
}

/** `points` requests per `durationSeconds`. */
export interface RateSpec {
  readonly points: number;
  readonly durationSeconds: number;
}

/** The toolsets every principal starts with (the generator resolved the spec's default). */
export interface DiscoverySpec {
  readonly initial: readonly string[];
}

/** A named group of members: tools and prompts by name, resources by URI, templates by URI template. */
export interface ToolsetSpec {
  readonly description?: string;
  /** Exposed when a deployment chooses no toolsets. */
  readonly default: boolean;
  readonly tools?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceTemplates?: readonly string[];
  readonly prompts?: readonly string[];
}

/** An MCP Apps view: its resources/list entry (mimeType `text/html;profile=mcp-app`, `_meta.ui`) and its HTML. */
export interface AppSpec {
  readonly definition: Resource;
  readonly html: string;
}

export interface TaskSettings {
  readonly support: 'optional' | 'required';
  /** How long the record lives after creation. */
  readonly ttlMs: number;
  readonly pollIntervalMs?: number;
  /** `elicit` keys gathered by MRTR rounds on tools/call before the task is created. */
  readonly beforeTask?: readonly string[];
  /**
   * Re-runs on another instance when the one running it is lost (docs/tasks.md): at most `max` more runs,
   * each after `backoffMs`. Default for a tool whose annotations say `idempotentHint: true`: one re-run.
   */
  readonly retry?: TaskRetry;
}

export interface TaskRetry {
  readonly max: number;
  readonly backoffMs?: number;
}
