import { CODES, type DiagnosticCode } from './codes.js';

export type Severity = 'error' | 'warning';

/** One problem found in a spec. Data, not an exception: stages collect them and the CLI reports once. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** Path of the spec file as given to mcpgen (relative to the working directory when possible). */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  /** JSON path inside the file, e.g. `tools[2].input.properties.region`. */
  readonly path: string;
  /** The change that mends it, when one is certain: `check --format json` prints it, `mcpgen lsp` offers it. */
  readonly fix?: Fix;
}

/** A suggested change: text edits, applied together. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly FixEdit[];
}

/** Replace `start`..`end` (1-based line and column in UTF-16 units, like a Diagnostic's; end exclusive) of `file`. */
export interface FixEdit {
  readonly file: string;
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
  readonly newText: string;
}

export function defaultSeverity(code: DiagnosticCode): Severity {
  return CODES[code].severity;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable order: by file, position, then code, so reports and snapshots never depend on rule order. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      cmp(a.file, b.file) || a.line - b.line || a.column - b.column || cmp(a.code, b.code) || cmp(a.message, b.message),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Render a JSON path from segments: `tools[2].input.properties["my-field"]`. */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === '' ? '$' : out;
}

/** formatPath read back: `tools[2].input.properties["my-field"]` → ['tools', 2, 'input', 'properties', 'my-field']. */
export function parsePath(path: string): (string | number)[] | undefined {
  if (path === '$') return [];
  const out: (string | number)[] = [];
  const segment = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(0|[1-9]\d*)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  while (segment.lastIndex < path.length) {
    const m = segment.exec(path);
    if (m === null) return undefined;
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]!) as string)));
  }
  return out;
}
