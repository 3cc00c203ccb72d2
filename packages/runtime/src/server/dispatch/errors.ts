// How a handler's failure reaches the client: only what the handler meant for it (PublicError,
// ProtocolError) is sent as written; everything else goes to onHandlerError and the client sees a
// generic message. Shared by every MCP area (tools, resources, prompts, completions).
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/server';
import { PublicError } from '../core/replies.js';
import { logLine } from '../core/log.js';

export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export class ToolTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** What a thrown value is, without trusting it: a Proxy or a hostile getter must not throw from here. */
export function classify(e: unknown): { kind: 'timeout' | 'protocol' | 'other' } | { kind: 'public'; message: string } {
  try {
    if (e instanceof ToolTimeout) return { kind: 'timeout' };
    if (e instanceof ProtocolError) return { kind: 'protocol' };
    if (e instanceof PublicError) {
      const message: unknown = e.message; // read once: a getter could answer differently the second time
      if (typeof message === 'string') return { kind: 'public', message };
    }
  } catch {
    // instanceof on a Proxy runs its getPrototypeOf trap; a message getter may throw
  }
  return { kind: 'other' };
}

/** For logs: the stack or the text of any thrown value, even one whose String() or stack getter throws. */
export function describeError(e: unknown): string {
  try {
    if (e instanceof Error) return String(e.stack ?? e.message);
    return String(e);
  } catch {
    try {
      return `unprintable thrown value (${Object.prototype.toString.call(e)})`;
    } catch {
      return 'unprintable thrown value';
    }
  }
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export interface ErrorReporting {
  /** Never throws: a reporter that fails must not turn into the client's answer. */
  readonly onError: (e: unknown, where: string) => void;
  /**
   * A resource/prompt/completion handler's failure as the JSON-RPC error the client sees: ProtocolErrors
   * pass (notFound, protocolError), a PublicError's message is sent as -32603, anything else is reported
   * to onHandlerError and the client sees only `safeMessage`.
   */
  readonly internal: (e: unknown, where: string, safeMessage: string) => ProtocolError;
}

export function errorReporting(onHandlerError: ((error: unknown, where: string) => void) | undefined): ErrorReporting {
  const report = onHandlerError ?? ((e: unknown, where: string) => logLine('error', `${where}: ${describeError(e)}`, { where }));
  const onError = (e: unknown, where: string): void => {
    try {
      report(e, where);
    } catch (failure) {
      logLine('error', `${where}: onHandlerError threw (${describeError(failure)}) while reporting: ${describeError(e)}`, { where });
    }
  };
  const internal = (e: unknown, where: string, safeMessage: string): ProtocolError => {
    const c = classify(e);
    if (c.kind === 'protocol') return e as ProtocolError;
    if (c.kind === 'public') return new ProtocolError(INTERNAL_ERROR, c.message);
    onError(e, where);
    return new ProtocolError(INTERNAL_ERROR, safeMessage);
  };
  return { onError, internal };
}
