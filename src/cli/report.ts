import { formatJson, formatSummary, formatText } from '../diagnostics/format.js';
import type { CheckResult } from '../pipeline.js';

export interface Io {
  readonly cwd: string;
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly color: boolean;
}

/** Print diagnostics once, in the chosen format; json goes to stdout so tools can pipe it. */
export function printDiagnostics(result: Pick<CheckResult, 'diagnostics' | 'files' | 'sources'>, format: 'text' | 'json', io: Io): void {
  if (format === 'json') {
    io.stdout(`${formatJson(result.diagnostics)}\n`);
    return;
  }
  if (result.diagnostics.length > 0) io.stderr(`${formatText(result.diagnostics, { color: io.color, sources: result.sources })}\n\n`);
  io.stderr(`${formatSummary(result.diagnostics, result.files.length)}\n`);
}
