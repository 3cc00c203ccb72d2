// The validation-verdict table of the import round-trip test: one row per (tool, argument case), the
// verdict of the original server and of the generated one, and the differences known with their reason.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseKind, Verdict } from './argument-cases.js';

export interface VerdictRow {
  readonly server: string;
  readonly tool: string;
  readonly kind: CaseKind;
  readonly property: string | undefined;
  readonly args: Record<string, unknown>;
  /** What the published schema says. */
  readonly expected: Verdict;
  /** Absent: the tool is not called on the original (the server's `notCalled` says why). */
  readonly original: Verdict | undefined;
  readonly generated: Verdict;
}

/** A difference that remains, matched by server, case kind, and (when given) tools and property. */
export interface KnownDifference {
  readonly server: string;
  readonly kind: CaseKind;
  readonly tools?: readonly string[];
  readonly property?: string;
  readonly original: Verdict;
  readonly reason: string;
}

export interface VerdictOutcome {
  readonly compared: number;
  /** Differing rows no known difference explains. */
  readonly unexplained: readonly string[];
  /** Known differences that match no differing row. */
  readonly stale: readonly string[];
  /** Rows not called on the original whose generated verdict is not the schema's. */
  readonly notCalledOff: readonly string[];
}

const label = (r: VerdictRow) => `${r.server}/${r.tool}/${r.kind}${r.property === undefined ? '' : ` (${r.property})`}: original ${r.original ?? 'not called'}, generated ${r.generated} ${JSON.stringify(r.args).slice(0, 200)}`;

const matches = (d: KnownDifference, r: VerdictRow) =>
  d.server === r.server && d.kind === r.kind && d.original === r.original && (d.tools === undefined || d.tools.includes(r.tool)) && (d.property === undefined || d.property === r.property);

/** Compares, writes the whole table to `file` (for a reader, and for the report), and says what is wrong. */
export function checkVerdicts(rows: readonly VerdictRow[], known: readonly KnownDifference[], file: string): VerdictOutcome {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(rows, null, 1));
  const called = rows.filter((r) => r.original !== undefined);
  const differing = called.filter((r) => r.original !== r.generated);
  const outcome = {
    compared: called.length,
    unexplained: differing.filter((r) => !known.some((d) => matches(d, r))).map(label),
    stale: known.filter((d) => !differing.some((r) => matches(d, r))).map((d) => `${d.server}/${d.kind}/${d.tools?.join(',') ?? '*'}/${d.property ?? '*'}: ${d.reason}`),
    notCalledOff: rows.filter((r) => r.original === undefined && r.generated !== r.expected).map(label),
  };
  process.stderr.write(`verdicts ${rows[0]?.server ?? ''}: ${rows.length} cases, ${called.length} compared with the original, ${differing.length} differ (all explained: ${outcome.unexplained.length === 0})\n`);
  return outcome;
}
