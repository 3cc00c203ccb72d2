// Dynamic discovery at request time (core/discovery.ts has the plan and the store): which tools the caller
// sees and may call, and the handlers of list_toolsets / enable_toolset / disable_toolset. The caller is
// its principal (auth subject and client; '' — everyone alike — without auth); its enabled set is read from
// the store on each tools/list and on each call of a tool outside the always-on set, never cached here, so
// an enable on one instance holds on the next request to any other.
import type { ServerContext, ServerEvent } from '@modelcontextprotocol/server';
import { principalKeyOf } from '../auth/auth.js';
import type { RequestContext } from '../core/context.js';
import { DISCOVERY_METHODS, type DiscoveryPlan, type DiscoveryStore } from '../core/discovery.js';
import { PublicError } from '../core/replies.js';
import { toolsChangedFor } from '../scale/principal-scope.js';
import { principalKey } from './request-context.js';

/** A handler as options.ts's HandlerTable holds it (not imported: options.ts imports this file's types). */
type AnyHandler = (...args: unknown[]) => unknown;

export interface DiscoveryGate {
  /** The tool names `ctx`'s principal sees now (the always-on ones and those of its enabled toolsets). */
  visible(ctx: ServerContext): Promise<ReadonlySet<string>>;
  /** Whether `ctx`'s principal may call `name` (reads the store only for a tool outside the always-on set). */
  callable(name: string, ctx: ServerContext): Promise<boolean>;
  /** Handlers of the discovery tools, by their DISCOVERY_METHODS keys. */
  readonly handlers: Readonly<Record<string, AnyHandler>>;
}

/** `publish` sends a change event to the listen streams (every instance's, through the server's bus). */
export function discoveryGate(plan: DiscoveryPlan, store: DiscoveryStore, publish: (event: ServerEvent) => void): DiscoveryGate {
  const toolsOf = (enabled: ReadonlySet<string>): Set<string> => {
    const names = new Set(plan.alwaysOn);
    for (const name of enabled) for (const t of plan.toolsets.get(name)?.tools ?? []) names.add(t);
    return names;
  };
  const visibleTo = async (principal: string) => toolsOf(await store.enabled(principal));
  const known = (toolset: string) => {
    if (!plan.toolsets.has(toolset)) throw new PublicError(`Unknown toolset ${JSON.stringify(toolset)}; list_toolsets names them`);
    return plan.toolsets.get(toolset)!;
  };
  const change = (enable: boolean) => async (args: { toolset: string }, context: RequestContext) => {
    const set = known(args.toolset);
    const principal = principalKeyOf(context.auth);
    if (!enable && set.initial) throw new PublicError(`Toolset ${JSON.stringify(args.toolset)} is part of the initial set and stays enabled`);
    const changed = set.initial ? false : enable ? await store.enable(principal, args.toolset) : await store.disable(principal, args.toolset);
    // Only this principal's list changed: only its listen streams (on any instance) hear of it.
    if (changed) publish(toolsChangedFor(principal));
    return { toolset: args.toolset, changed, tools: [...set.tools] };
  };
  return {
    visible: (ctx) => visibleTo(principalKey(ctx)),
    callable: async (name, ctx) => plan.alwaysOn.has(name) || (await visibleTo(principalKey(ctx))).has(name),
    handlers: {
      [DISCOVERY_METHODS.list]: async (_args: unknown, context: RequestContext) => {
        const enabled = await store.enabled(principalKeyOf(context.auth));
        const toolsets = [...plan.toolsets].map(([name, s]) => ({ name, ...(s.description !== undefined ? { description: s.description } : {}), enabled: s.initial || enabled.has(name), initial: s.initial, tools: [...s.tools] }));
        return { toolsets };
      },
      [DISCOVERY_METHODS.enable]: change(true),
      [DISCOVERY_METHODS.disable]: change(false),
    } as Record<string, AnyHandler>,
  };
}

/**
 * Whether a tools/call result is enable_toolset's or disable_toolset's report of a change to the caller's
 * tool list (`method`: the called tool's handler method; `result`: what the call answered).
 */
export function changedToolList(method: string | undefined, result: unknown): boolean {
  if (method !== DISCOVERY_METHODS.enable && method !== DISCOVERY_METHODS.disable) return false;
  const structured = (result as { structuredContent?: { changed?: unknown } } | undefined)?.structuredContent;
  return structured?.changed === true;
}
