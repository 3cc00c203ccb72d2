// Dynamic discovery (issue 29 item 2, docs/toolsets.md#dynamic-discovery). A spec with `discovery:` starts
// every principal with a small set of tools (members of no toolset and of the initial toolsets) and lets
// the model enable more, one toolset at a time, through tools the runtime adds (list_toolsets,
// enable_toolset, disable_toolset). 2026-07-28 has no sessions, so the enabled set belongs to the
// principal (the auth subject and client; everyone alike without auth) and lives in a DiscoveryStore
// that every instance reads: memory for one process, Redis (scale/discovery-redis.ts) behind a balancer.
import { DISABLE_TOOLSET_TOOL, ENABLE_TOOLSET_TOOL, LIST_TOOLSETS_TOOL } from '../../shared/discovery.js';
import type { ServerDefinition, ToolSpec } from './definition.js';

/** Where each principal's enabled toolsets (beyond the initial ones) live. */
export interface DiscoveryStore {
  /** The toolsets `principal` enabled (its TTL starts again). */
  enabled(principal: string): Promise<ReadonlySet<string>>;
  /** Adds one; true when it was not enabled yet. */
  enable(principal: string, toolset: string): Promise<boolean>;
  /** Removes one; true when it was enabled. */
  disable(principal: string, toolset: string): Promise<boolean>;
}

/** One process's store: fine for stdio and a single HTTP instance; a principal idle for `ttlMs` starts over. */
export class MemoryDiscoveryStore implements DiscoveryStore {
  readonly #sets = new Map<string, { names: Set<string>; until: number }>();
  constructor(private readonly ttlMs = 24 * 3600_000, private readonly maxPrincipals = 100_000) {}

  async enabled(principal: string): Promise<ReadonlySet<string>> {
    return new Set(this.#entry(principal, false)?.names ?? []);
  }

  async enable(principal: string, toolset: string): Promise<boolean> {
    const entry = this.#entry(principal, true)!;
    const added = !entry.names.has(toolset);
    entry.names.add(toolset);
    return added;
  }

  async disable(principal: string, toolset: string): Promise<boolean> {
    return this.#entry(principal, false)?.names.delete(toolset) ?? false;
  }

  #entry(principal: string, create: boolean): { names: Set<string>; until: number } | undefined {
    const now = Date.now();
    let entry = this.#sets.get(principal);
    if (entry !== undefined && entry.until <= now) {
      this.#sets.delete(principal);
      entry = undefined;
    }
    if (entry === undefined && create) {
      // Bounded: the oldest principal goes first (Map keeps insertion order).
      if (this.#sets.size >= this.maxPrincipals) this.#sets.delete(this.#sets.keys().next().value!);
      entry = { names: new Set(), until: 0 };
      this.#sets.set(principal, entry);
    }
    if (entry !== undefined) entry.until = now + this.ttlMs;
    return entry;
  }
}

/** What a deployment with discovery offers: the toolsets one may enable, and the tools everyone sees. */
export interface DiscoveryPlan {
  /** Tools every principal sees: members of no toolset, of an initial toolset, and the discovery tools. */
  readonly alwaysOn: ReadonlySet<string>;
  /** The toolsets of this deployment, in spec order, with their exposed tools. */
  readonly toolsets: ReadonlyMap<string, { readonly description?: string; readonly tools: readonly string[]; readonly initial: boolean }>;
}

/** `def` is the exposed definition; `chosen` the toolsets the deployment chose (exposure.ts). */
export function discoveryPlan(def: ServerDefinition, chosen: readonly string[]): DiscoveryPlan | undefined {
  if (def.discovery === undefined) return undefined;
  const sets = def.toolsets ?? {};
  const exposed = new Set(def.tools.map((t) => t.definition.name));
  const grouped = new Set(Object.values(sets).flatMap((s) => s.tools ?? []));
  const initial = new Set(def.discovery.initial.filter((n) => chosen.includes(n)));
  const toolsets = new Map(chosen.map((name) => {
    const set = sets[name]!;
    const tools = (set.tools ?? []).filter((t) => exposed.has(t));
    return [name, { ...(set.description !== undefined ? { description: set.description } : {}), tools, initial: initial.has(name) }] as const;
  }));
  const alwaysOn = new Set(def.tools.map((t) => t.definition.name).filter((n) => !grouped.has(n) || [...initial].some((s) => toolsets.get(s)!.tools.includes(n))));
  return { alwaysOn, toolsets };
}

/** The exposed definition plus the discovery tools (and tools.listChanged); the same object without discovery. */
export function withDiscoveryTools(def: ServerDefinition, chosen: readonly string[]): ServerDefinition {
  if (def.discovery === undefined || def.tools.some(isDiscoveryTool)) return def;
  const names = chosen.filter((n) => (def.toolsets?.[n]?.tools ?? []).length > 0);
  return {
    ...def,
    capabilities: { ...def.capabilities, tools: { ...def.capabilities.tools, listChanged: true } },
    tools: [...def.tools, ...discoveryToolSpecs(names)],
  };
}

/** Handler keys of the discovery tools (createServerFactory adds the handlers: the spec has none). */
export const DISCOVERY_METHODS = { list: '$mcpgenListToolsets', enable: '$mcpgenEnableToolset', disable: '$mcpgenDisableToolset' } as const;

export function isDiscoveryTool(t: ToolSpec): boolean {
  return t.method === DISCOVERY_METHODS.list || t.method === DISCOVERY_METHODS.enable || t.method === DISCOVERY_METHODS.disable;
}

function discoveryToolSpecs(names: readonly string[]): ToolSpec[] {
  const toolset = { type: 'object', properties: { toolset: { type: 'string', enum: [...names], description: 'The toolset, as list_toolsets names it.' } }, required: ['toolset'], additionalProperties: false } as const;
  const changed = { type: 'object', properties: { toolset: { type: 'string' }, changed: { type: 'boolean' }, tools: { type: 'array', items: { type: 'string' } } }, required: ['toolset', 'changed', 'tools'] } as const;
  const spec = (definition: ToolSpec['definition'], method: string): ToolSpec => ({ definition, method, headers: [], elicit: {} });
  return [
    spec({
      name: LIST_TOOLSETS_TOOL,
      description: 'Lists the toolsets of this server that can be enabled, each with its tools and whether it is enabled now. Enable one with enable_toolset to use its tools.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: { type: 'object', properties: { toolsets: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' }, enabled: { type: 'boolean' }, initial: { type: 'boolean' }, tools: { type: 'array', items: { type: 'string' } } }, required: ['name', 'enabled', 'initial', 'tools'] } } }, required: ['toolsets'] },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    }, DISCOVERY_METHODS.list),
    spec({
      name: ENABLE_TOOLSET_TOOL,
      description: 'Enables a toolset: its tools are added to your tool list (the list changes; list the tools again).',
      inputSchema: toolset as never,
      outputSchema: changed as never,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }, DISCOVERY_METHODS.enable),
    spec({
      name: DISABLE_TOOLSET_TOOL,
      description: 'Disables a toolset enabled with enable_toolset: its tools leave your tool list. Initial toolsets stay enabled.',
      inputSchema: toolset as never,
      outputSchema: changed as never,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }, DISCOVERY_METHODS.disable),
  ];
}
