// Change events meant for one principal (dynamic discovery: enabling a toolset changes that principal's
// tools/list only). The event carries a hash of the principal under `_meta["dev.mcpgen/principal"]`; it
// travels through any bus (in process, Redis) like every other event, and a listen stream hears it only
// when the stream was opened by the same principal. The SDK's listen router subscribes to the bus while it
// serves the listen request, so the stream's principal is known then: the transport runs listen requests
// inside `inPrincipalScope` (only for a spec with `discovery:`, the one source of scoped events), and
// `scopedBus` reads it at subscribe time. A stream with no scope (stdio, where there is no auth, or a
// spec without discovery) belongs to the anonymous principal, as every caller without auth does.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

/** The `_meta` key of a principal-scoped event (removed before the notification is sent). */
export const PRINCIPAL_SCOPE_KEY = 'dev.mcpgen/principal';

const scopes = new AsyncLocalStorage<string>();

/** A principal key (auth/auth.ts principalKeyOf: '' without auth) as the scope events carry: no subject in clear. */
export function principalScope(principalKey: string): string {
  return createHash('sha256').update(`mcpgen-principal\u0000${principalKey}`).digest('base64url').slice(0, 22);
}

/** Runs `serve` (a listen request) as `scope`: bus subscriptions made meanwhile hear that principal's events. */
export function inPrincipalScope<T>(scope: string, serve: () => T): T {
  return scopes.run(scope, serve);
}

/** `tools/list_changed` for one principal's listen streams only. */
export function toolsChangedFor(principalKey: string): ServerEvent {
  return { kind: 'tools_list_changed', params: { _meta: { [PRINCIPAL_SCOPE_KEY]: principalScope(principalKey) } } };
}

/** The bus as listen streams should see it: other principals' events dropped, the scope key removed. */
export function scopedBus(bus: ServerEventBus): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe(listener) {
      const mine = scopes.getStore() ?? principalScope('');
      return bus.subscribe((event) => {
        const meta = event.params?._meta as Record<string, unknown> | undefined;
        if (meta === undefined || !Object.hasOwn(meta, PRINCIPAL_SCOPE_KEY)) return listener(event);
        if (meta[PRINCIPAL_SCOPE_KEY] !== mine) return;
        const { [PRINCIPAL_SCOPE_KEY]: _scope, ...rest } = meta;
        const { _meta: _old, ...params } = event.params!;
        listener({ ...event, params: Object.keys(rest).length > 0 ? { ...params, _meta: rest } : params } as ServerEvent);
      });
    },
  };
}
