// What the import skipped or changed, kept as JSON pointers into the OpenAPI document until the end,
// where they become diagnostics at file:line:col (a document read from a URL has no positions: 1:1).
import { diagnosticAt, type SourceFile } from '../../parse/source.js';
import { defaultSeverity, formatPath, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../../diagnostics/codes.js';

export interface ImportNote {
  readonly code: DiagnosticCode;
  readonly pointer: readonly (string | number)[];
  readonly message: string;
}

/**
 * `source` is called only when there are notes: a description is read a second time, with positions, just
 * to place them (GitHub's 13 MB description: 1.7 s and most of the import's garbage, for no note).
 */
export function noteDiagnostics(notes: readonly ImportNote[], file: string, readSource: () => SourceFile | undefined): Diagnostic[] {
  const source = notes.length === 0 ? undefined : readSource();
  return notes.map((n) =>
    source === undefined
      ? { code: n.code, severity: defaultSeverity(n.code), message: n.message, file, line: 1, column: 1, path: formatPath(n.pointer) }
      : diagnosticAt(source, n.pointer, n.code, n.message),
  );
}
