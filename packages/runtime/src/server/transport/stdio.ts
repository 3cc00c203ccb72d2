// The SDK's stdio entry (its own chunk) loads when stdio is served, not at every server's start.
import type { Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ServerFactory } from '../dispatch/create-server.js';
import { scopedBus } from '../scale/principal-scope.js';
import { reportLegacyRefusals } from './legacy-refusal.js';
import { StdioProtocolSpans } from './stdio-spans.js';
import { StdioWire, type StdioWireOptions } from './stdio-wire.js';

export interface StdioOptions extends StdioWireOptions {
  /**
   * Also serve 2025-11-25 clients that open with initialize (the spec's `protocol.legacy`). Default true;
   * when false their `initialize` gets -32022 and one line on stderr says why.
   */
  readonly legacy?: boolean;
  /**
   * The bus `ctx.notify` publishes to (createMcpgenServer passes its own). Its events reach this
   * connection's `subscriptions/listen` subscriptions: on stdio the connection is the stream.
   */
  readonly bus?: ServerEventBus;
}

/**
 * Newline-delimited JSON-RPC on stdin/stdout; logs belong on stderr. When stdin ends, running requests
 * still answer (up to `drainMs`), then the connection closes.
 */
export function serveStdio(factory: ServerFactory, options: StdioOptions = {}): { close(): Promise<void> } {
  // With telemetry, initialize, ping, server/discover and listen get their server spans at the wire.
  const spans = factory.traceProtocol === undefined ? undefined : new StdioProtocolSpans(factory.traceProtocol);
  const transport = new StdioWire(process.stdin, process.stdout, options, spans);
  const unsubscribe: (() => void)[] = [];
  // A 2026-07-28 instance hears the bus: its send*() calls go through the SDK's stdio listen router, which
  // stamps them onto the subscriptions whose filter asked for them and drops the rest. A 2025-11-25
  // instance (that era has no listen) hears the list changes only: the connection is its client's one
  // session, and that revision has the server send `notifications/*/list_changed` on it unasked when it
  // declares `listChanged` (dynamic discovery's enable_toolset relies on it). `resources/updated` needs a
  // 2025 `resources/subscribe` first, so it is not forwarded.
  const instance = ({ era }: { era?: string } = {}) => {
    const server = factory();
    // Scoped: stdio has no auth, so its streams hear the anonymous principal's discovery events only.
    if (options.bus !== undefined) unsubscribe.push(forwardEvents(scopedBus(options.bus), server, era === 'modern'));
    return server;
  };
  // stdin is read once the SDK starts the transport; lines arriving before wait in the stream.
  const serving = import('./sdk-stdio.js').then(({ serveStdio: sdkServeStdio }) =>
    options.legacy === false
      ? sdkServeStdio(instance, { legacy: 'reject', onerror: reportLegacyRefusals(undefined), transport })
      : sdkServeStdio(instance, { legacy: 'serve', transport }),
  );
  return {
    close: async () => {
      for (const off of unsubscribe.splice(0)) off();
      await (await serving).close();
    },
  };
}

/** Bus events as the instance's own change notifications (`resources/updated` only when `updates`); unsubscribes when the instance closes. */
function forwardEvents(bus: ServerEventBus, server: Server, updates: boolean): () => void {
  // A discarded or closed instance has no transport: its send rejects, and nobody is left to hear it.
  const quiet = (p: Promise<void>) => void p.catch(() => {});
  const off = bus.subscribe((event: ServerEvent) => {
    if (event.kind === 'tools_list_changed') quiet(server.sendToolListChanged());
    else if (event.kind === 'prompts_list_changed') quiet(server.sendPromptListChanged());
    else if (event.kind === 'resources_list_changed') quiet(server.sendResourceListChanged());
    else if (event.kind === 'resource_updated' && updates) quiet(server.sendResourceUpdated({ uri: event.uri }));
  });
  const onclose = server.onclose;
  server.onclose = () => {
    off();
    onclose?.();
  };
  return off;
}
