import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerFactory } from './create-server.js';

export interface StdioOptions {
  /** Also serve 2025-11-25 clients that open with initialize (the spec's `protocol.legacy`). */
  readonly legacy?: boolean;
}

/** Newline-delimited JSON-RPC on stdin/stdout; logs belong on stderr. Resolves when stdin closes. */
export function serveStdio(factory: ServerFactory, options: StdioOptions = {}): { close(): Promise<void> } {
  return sdkServeStdio(() => factory(), { legacy: options.legacy ? 'serve' : 'reject' });
}
