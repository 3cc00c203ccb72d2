// The runtime's own stderr lines (handler errors, Redis connection state, "listening on", the access log):
// plain `[mcpgen] …` text by default, or one JSON object a line (MCPGEN_LOG_FORMAT=json: time, level, msg and
// the line's fields) for log pipelines; lines below MCPGEN_LOG_LEVEL are dropped. A few lines of our own
// rather than pino: the runtime writes little, pino's transport threads do not exist on workerd, and a
// logger module would weigh on cold start for every server, most of which never configure it. Process-wide
// (set once by the entry point's serverOptionsFromEnv), like the stream it writes to. Until then the format is
// read from MCPGEN_LOG_FORMAT itself, so the lines of argument parsing and of start-up follow it too.
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'text' | 'json';

let format: LogFormat | undefined;
let threshold = 1; // info
let write: (line: string) => void = (line) => void process.stderr.write(line);

/** Set the format and the level (and, for tests, where lines go). */
export function configureLog(settings: { readonly format?: LogFormat; readonly level?: LogLevel; readonly write?: (line: string) => void }): void {
  if (settings.format !== undefined) format = settings.format;
  if (settings.level !== undefined) threshold = LOG_LEVELS.indexOf(settings.level);
  if (settings.write !== undefined) write = settings.write;
}

export function logFormat(): LogFormat {
  return format ?? (globalThis.process?.env?.MCPGEN_LOG_FORMAT === 'json' ? 'json' : 'text');
}

export function logEnabled(level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= threshold;
}

/** One line: `[mcpgen] msg` (text) or `{"time","level","msg",…fields}` (json). */
export function logLine(level: LogLevel, msg: string, fields: Readonly<Record<string, unknown>> = {}): void {
  if (!logEnabled(level)) return;
  logText(level, msg, '[mcpgen] ', fields);
}

/**
 * A line whose text form keeps its own prefix (`mcpgen: ` for a refused setting, `main.js: ` for an
 * argument, none for "cannot listen…"): `prefix + msg` as text, `{"time","level","msg",…fields}` as JSON.
 */
export function logText(level: LogLevel, msg: string, prefix = 'mcpgen: ', fields: Readonly<Record<string, unknown>> = {}): void {
  if (!logEnabled(level)) return;
  write(logFormat() === 'json' ? `${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n` : `${prefix}${msg}\n`);
}

/** A JSON line written whatever the format (the access log is JSON by definition), when its level is on. */
export function logJson(level: LogLevel, line: Readonly<Record<string, unknown>>): void {
  if (logEnabled(level)) write(`${JSON.stringify(line)}\n`);
}
