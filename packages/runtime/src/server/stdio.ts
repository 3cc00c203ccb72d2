import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerFactory } from './create-server.js';
import { reportLegacyRefusals } from './legacy-refusal.js';

export interface StdioOptions {
  /**
   * Also serve 2025-11-25 clients that open with initialize (the spec's `protocol.legacy`). Default true;
   * when false their `initialize` gets -32022 and one line on stderr says why.
   */
  readonly legacy?: boolean;
}

/** Newline-delimited JSON-RPC on stdin/stdout; logs belong on stderr. Resolves when stdin closes. */
export function serveStdio(factory: ServerFactory, options: StdioOptions = {}): { close(): Promise<void> } {
  if (options.legacy === false) return sdkServeStdio(() => factory(), { legacy: 'reject', onerror: reportLegacyRefusals(undefined) });
  return sdkServeStdio(() => factory(), { legacy: 'serve' });
}
