// What generated code hands the runtime: the server's wire definitions as data.
import type { Implementation, Prompt, Resource, ResourceTemplateType, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import type { HeaderDeclaration } from '../shared/header-values.js';

export interface CacheHintSpec {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

export interface ElicitSpec {
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
  readonly url?: string;
}

export interface ToolSpec {
  /** Exactly what tools/list sends. */
  readonly definition: Tool;
  /** Key of the handler in the handlers object. */
  readonly method: string;
  readonly headers: readonly HeaderDeclaration[];
  readonly elicit: Readonly<Record<string, ElicitSpec>>;
  readonly timeoutMs?: number;
}

export interface ResourceSpec {
  readonly definition: Resource;
  readonly method: string;
  readonly cache?: CacheHintSpec;
}

export interface ResourceTemplateSpec {
  readonly definition: ResourceTemplateType;
  readonly method: string;
  readonly cache?: CacheHintSpec;
}

/** The SDK's Prompt type predates `title` on arguments (2026-07-28 BaseMetadata has it). */
export type PromptDefinition = Omit<Prompt, 'arguments'> & {
  arguments?: (NonNullable<Prompt['arguments']>[number] & { title?: string })[];
};

export interface PromptSpec {
  readonly definition: PromptDefinition;
  readonly method: string;
}

export interface ServerDefinition {
  readonly info: Implementation;
  readonly instructions?: string;
  readonly capabilities: ServerCapabilities;
  readonly listCache: CacheHintSpec;
  readonly tools: readonly ToolSpec[];
  readonly resources: readonly ResourceSpec[];
  readonly resourceTemplates: readonly ResourceTemplateSpec[];
  readonly prompts: readonly PromptSpec[];
}
