// The SDK's stdio entry (its own chunk) loads when stdio is served, not at every server's start.
import type { ServerFactory } from '../dispatch/create-server.js';
import { reportLegacyRefusals } from './legacy-refusal.js';
import { StdioWire, type StdioWireOptions } from './stdio-wire.js';

export interface StdioOptions extends StdioWireOptions {
  /**
   * Also serve 2025-11-25 clients that open with initialize (the spec's `protocol.legacy`). Default true;
   * when false their `initialize` gets -32022 and one line on stderr says why.
   */
  readonly legacy?: boolean;
}

/**
 * Newline-delimited JSON-RPC on stdin/stdout; logs belong on stderr. When stdin ends, running requests
 * still answer (up to `drainMs`), then the connection closes.
 */
export function serveStdio(factory: ServerFactory, options: StdioOptions = {}): { close(): Promise<void> } {
  const transport = new StdioWire(process.stdin, process.stdout, options);
  // stdin is read once the SDK starts the transport; lines arriving before wait in the stream.
  const serving = import('./sdk-stdio.js').then(({ serveStdio: sdkServeStdio }) =>
    options.legacy === false
      ? sdkServeStdio(() => factory(), { legacy: 'reject', onerror: reportLegacyRefusals(undefined), transport })
      : sdkServeStdio(() => factory(), { legacy: 'serve', transport }),
  );
  return { close: async () => (await serving).close() };
}
