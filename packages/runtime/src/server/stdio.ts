import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerFactory } from './create-server.js';
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
  if (options.legacy === false) return sdkServeStdio(() => factory(), { legacy: 'reject', onerror: reportLegacyRefusals(undefined), transport });
  return sdkServeStdio(() => factory(), { legacy: 'serve', transport });
}
