// Checks across specs: two specs that would write the same place. Each one is an error at every
// spec's `server.name`, so whichever file the user opens shows it, and nothing is written.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { diagnosticAt, type SourceFile } from '../parse/source.js';

export interface NamedSpec {
  /** The root spec file (its `server.name` is where the diagnostic points). */
  readonly source: SourceFile;
  /** What must be unique across specs: an output folder, a handlers file. */
  readonly target: string;
}

/**
 * `describe(target, others)` says what collides with the other specs' files named. Targets are compared
 * case-insensitively: on macOS and Windows `Weather/` and `weather/` are one folder.
 */
export function collisions(specs: readonly NamedSpec[], code: DiagnosticCode, describe: (target: string, others: string) => string): Diagnostic[] {
  const byTarget = new Map<string, NamedSpec[]>();
  for (const s of specs) {
    const key = s.target.toLowerCase();
    byTarget.set(key, [...(byTarget.get(key) ?? []), s]);
  }
  const found: Diagnostic[] = [];
  for (const group of byTarget.values()) {
    if (group.length < 2) continue;
    for (const s of group) {
      const others = group.filter((o) => o !== s).map((o) => o.source.file).join(', ');
      found.push(diagnosticAt(s.source, ['server', 'name'], code, describe(s.target, others)));
    }
  }
  return found;
}
