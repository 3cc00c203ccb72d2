// Dynamic discovery's pieces without a transport (docs/toolsets.md#dynamic-discovery): what a deployment
// offers (exposedDefinition + discoveryPlan), the in-process store, and the principal-scoped bus.
import { InMemoryServerEventBus, type ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { discoveryPlan, MemoryDiscoveryStore } from '../../packages/runtime/src/server/core/discovery.js';
import { exposedDefinition, exposedToolsets } from '../../packages/runtime/src/server/core/exposure.js';
import type { ServerDefinition, ToolSpec } from '../../packages/runtime/src/server/core/definition.js';
import { inPrincipalScope, principalScope, scopedBus, toolsChangedFor } from '../../packages/runtime/src/server/scale/principal-scope.js';

const tool = (name: string, readOnly = false): ToolSpec => ({ definition: { name, inputSchema: { type: 'object' }, ...(readOnly ? { annotations: { readOnlyHint: true } } : {}) }, method: name, headers: [], elicit: {} });
const DEF: ServerDefinition = {
  info: { name: 'hub', version: '1.0.0' },
  capabilities: { tools: { listChanged: false } },
  listCache: { ttlMs: 0, cacheScope: 'public' },
  tools: [tool('whoami', true), tool('list_issues', true), tool('list_repos', true), tool('delete_repo')],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  toolsets: { issues: { default: false, tools: ['list_issues'] }, repos: { default: false, tools: ['list_repos', 'delete_repo'] } },
  discovery: { initial: ['issues'] },
};
const names = (def: ServerDefinition) => def.tools.map((t) => t.definition.name);
const enumOf = (def: ServerDefinition, tool: string) => (def.tools.find((t) => t.definition.name === tool)!.definition.inputSchema as unknown as { properties: { toolset: { enum: string[] } } }).properties.toolset.enum;

describe('what a deployment with discovery offers', () => {
  it('chooses every toolset when none is chosen, adds the discovery tools once, declares tools.listChanged', () => {
    const def = exposedDefinition(DEF);
    expect(names(def)).toEqual(['whoami', 'list_issues', 'list_repos', 'delete_repo', 'list_toolsets', 'enable_toolset', 'disable_toolset']);
    expect(def.capabilities.tools).toEqual({ listChanged: true });
    expect(enumOf(def, 'enable_toolset')).toEqual(['issues', 'repos']);
    expect(names(exposedDefinition(def))).toEqual(names(def)); // filtering again changes nothing
    const plan = discoveryPlan(def, exposedToolsets(DEF, {}))!;
    expect([...plan.alwaysOn].sort()).toEqual(['disable_toolset', 'enable_toolset', 'list_issues', 'list_toolsets', 'whoami']);
    expect(plan.toolsets.get('repos')).toEqual({ tools: ['list_repos', 'delete_repo'], initial: false });
  });

  it('narrows to the chosen toolsets and keeps the discovery tools in read-only mode', () => {
    const options = { toolsets: ['issues'], readOnly: true };
    const def = exposedDefinition(DEF, options);
    expect(names(def)).toEqual(['whoami', 'list_issues', 'list_toolsets', 'enable_toolset', 'disable_toolset']);
    expect(names(exposedDefinition(def, options))).toEqual(names(def));
    expect(enumOf(def, 'enable_toolset')).toEqual(['issues']);
    expect([...discoveryPlan(def, exposedToolsets(DEF, options))!.toolsets.keys()]).toEqual(['issues']);
  });

  it('leaves a spec without discovery as it was', () => {
    const { discovery: _d, ...plain } = DEF;
    expect(exposedDefinition(plain, { toolsets: 'all' })).toBe(plain);
    expect(discoveryPlan(plain, ['issues', 'repos'])).toBeUndefined();
  });
});

describe('MemoryDiscoveryStore', () => {
  it('keeps a set per principal, forgets an idle one after the TTL, and holds at most maxPrincipals', async () => {
    vi.useFakeTimers();
    try {
      const store = new MemoryDiscoveryStore(1_000, 2);
      expect(await store.enable('alice', 'repos')).toBe(true);
      expect(await store.enable('alice', 'repos')).toBe(false);
      expect([...(await store.enabled('alice'))]).toEqual(['repos']);
      expect([...(await store.enabled('bob'))]).toEqual([]);
      vi.advanceTimersByTime(900);
      await store.enabled('alice'); // a read restarts the TTL
      vi.advanceTimersByTime(900);
      expect([...(await store.enabled('alice'))]).toEqual(['repos']);
      vi.advanceTimersByTime(1_001);
      expect([...(await store.enabled('alice'))]).toEqual([]);
      await store.enable('a', 'x');
      await store.enable('b', 'x');
      await store.enable('c', 'x'); // the oldest principal goes
      expect((await store.enabled('a')).size).toBe(0);
      expect(await store.disable('c', 'x')).toBe(true);
      expect(await store.disable('c', 'x')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('principal-scoped events', () => {
  it('reach only listeners subscribed as that principal, without the scope key; other events reach everyone', () => {
    const bus = scopedBus(new InMemoryServerEventBus());
    const heard: Record<string, ServerEvent[]> = { alice: [], bob: [], anonymous: [] };
    inPrincipalScope(principalScope('alice'), () => bus.subscribe((e) => heard.alice!.push(e)));
    inPrincipalScope(principalScope('bob'), () => bus.subscribe((e) => heard.bob!.push(e)));
    bus.subscribe((e) => heard.anonymous!.push(e)); // no scope: the anonymous principal ('')
    bus.publish(toolsChangedFor('alice'));
    bus.publish(toolsChangedFor(''));
    bus.publish({ kind: 'resource_updated', uri: 'hub://x' });
    expect(heard.alice).toEqual([{ kind: 'tools_list_changed', params: {} }, { kind: 'resource_updated', uri: 'hub://x' }]);
    expect(heard.bob).toEqual([{ kind: 'resource_updated', uri: 'hub://x' }]);
    expect(heard.anonymous).toEqual([{ kind: 'tools_list_changed', params: {} }, { kind: 'resource_updated', uri: 'hub://x' }]);
    expect(JSON.stringify(toolsChangedFor('alice\u0000app'))).not.toContain('alice');
  });
});
