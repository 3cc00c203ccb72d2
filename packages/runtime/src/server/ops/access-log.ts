// The access log: one JSON line per MCP request on stderr (MCPGEN_ACCESS_LOG=json), for log pipelines that
// read JSON lines (Loki, CloudWatch, Elastic). Written here in a few lines rather than through a logging
// library: the runtime writes nothing else per request, and the workerd and cold-start targets keep no
// dependency for it. The caller appears only as a hash of its principal: never a token, subject or secret.
import { createHash } from 'node:crypto';
import { logJson } from '../core/log.js';

export interface AccessEntry {
  readonly method: string;
  readonly id?: string | number | undefined;
  readonly tool?: string | undefined;
  readonly prompt?: string | undefined;
  readonly uri?: string | undefined;
  readonly durationMs: number;
  /** `ok`, `tool_error` (a result with isError), or `error` (a JSON-RPC error, `errorCode`). */
  readonly outcome: 'ok' | 'tool_error' | 'error';
  readonly errorCode?: number | undefined;
  /** Who called, as `principalKeyOf` gives it ('' without auth): hashed before it is written. */
  readonly principalKey: string;
  readonly traceId?: string | undefined;
  readonly transport: 'http' | 'stdio';
}

export type AccessLog = (entry: AccessEntry) => void;

/** JSON lines on `write` (default stderr): time, level, msg, then the entry's fields. */
export function jsonAccessLog(write?: (line: string) => void): AccessLog {
  return (e) => {
    const line = {
      time: new Date().toISOString(),
      level: e.outcome === 'error' ? 'warn' : 'info',
      msg: 'mcp request',
      method: e.method,
      ...(e.id !== undefined ? { request_id: String(e.id) } : {}),
      ...(e.tool !== undefined ? { tool: e.tool } : {}),
      ...(e.prompt !== undefined ? { prompt: e.prompt } : {}),
      ...(e.uri !== undefined ? { uri: e.uri } : {}),
      duration_ms: Math.round(e.durationMs * 1000) / 1000,
      outcome: e.outcome,
      ...(e.errorCode !== undefined ? { error_code: e.errorCode } : {}),
      ...(e.principalKey !== '' ? { principal: principalHash(e.principalKey) } : {}),
      ...(e.traceId !== undefined ? { trace_id: e.traceId } : {}),
      transport: e.transport,
    };
    // Without a writer of its own: stderr, through the log level (MCPGEN_LOG_LEVEL=warn keeps only errors).
    if (write !== undefined) write(`${JSON.stringify(line)}\n`);
    else logJson(line.level as 'info' | 'warn', line);
  };
}

/** A stable, short, one-way name for a caller: the same principal gives the same hash in every line. */
export function principalHash(principalKey: string): string {
  return createHash('sha256').update(principalKey).digest('base64url').slice(0, 16);
}
