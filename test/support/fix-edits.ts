import type { FixEdit } from '../../src/diagnostics/diagnostic.js';

/** A text with a fix's edits applied (1-based line/column, end exclusive), as an editor applies them. */
export function applyFixEdits(text: string, edits: readonly FixEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: { line: number; column: number }): number => (starts[p.line - 1] ?? text.length) + p.column - 1;
  const sorted = [...edits].sort((a, b) => offset(b.start) - offset(a.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.start)) + e.newText + out.slice(offset(e.end));
  return out;
}
