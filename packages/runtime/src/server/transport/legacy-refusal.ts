// A server that serves 2026-07-28 only (the spec's `protocol.legacy: false`) refuses the 2025-11-25
// `initialize` most hosts still open with. The SDK answers -32022 and reports the refusal through its
// `onerror`; the operator gets one line on stderr saying why and how to allow those clients.

import { logText } from '../core/log.js';

/** How the SDK (2.4) words a refused 2025-era request on a modern-only HTTP endpoint or stdio connection. */
const REFUSED = /^Rejected 2025-era request\b/;

export const LEGACY_REFUSED_HINT =
  'refused a 2025-11-25 client (it opened with initialize): this server has protocol.legacy: false, so it serves 2026-07-28 clients only; ' +
  'remove that key from the spec (legacy is on by default) and run `npx mcpgen generate` to serve both';

/** Wraps an `onerror`: refusals of 2025-era requests also write the hint (one line) to stderr. */
export function reportLegacyRefusals(
  onerror: ((error: Error) => void) | undefined,
  write: (line: string) => void = (line) => logText('warn', line.replace(/^mcpgen: /, '').trimEnd()),
): (error: Error) => void {
  return (error) => {
    if (REFUSED.test(error.message)) {
      const detail = /: (Unsupported protocol version[^\n]*)$/.exec(error.message)?.[1];
      write(`mcpgen: ${LEGACY_REFUSED_HINT}${detail !== undefined ? ` (${detail})` : ''}\n`);
    }
    onerror?.(error);
  };
}
