// What the import skipped or changed, kept as JSON pointers into the OpenAPI document until the end,
// where they become diagnostics at file:line:col (a document read from a URL has no positions: 1:1).
// A JSON description is located with jsonc-parser's syntax tree (offsets, linear in the text): the YAML
// parser with positions took minutes on a 6 MB one-line JSON description (loket.nl). A YAML one is
// read with positions as the spec files are (parse/source.ts).
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { diagnosticAt, lineColumn, parseSource } from '../../parse/source.js';
import { defaultSeverity, formatPath, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../../diagnostics/codes.js';

export interface ImportNote {
  readonly code: DiagnosticCode;
  readonly pointer: readonly (string | number)[];
  readonly message: string;
}

/** The description's text, or undefined (a URL, an unreadable file). */
export type DescriptionText = () => Uint8Array | undefined;

/**
 * The text is read only when there are notes: a description is read a second time, with positions, just
 * to place them (GitHub's 13 MB description: 1.7 s and most of the import's garbage, for no note).
 */
export function noteDiagnostics(notes: readonly ImportNote[], file: string, readText: DescriptionText): Diagnostic[] {
  if (notes.length === 0) return [];
  const bytes = readText();
  const text = bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  if (text !== undefined && /^\s*[{[]/.test(text)) return notes.map((n) => inJson(text, parseTree(text), n, file));
  const source = bytes === undefined ? undefined : parseSource(file, bytes).source;
  return notes.map((n) => (source === undefined ? atStart(n, file) : diagnosticAt(source, n.pointer, n.code, n.message, n.code === 'MCPG191' ? 'key' : 'value')));
}

function atStart(n: ImportNote, file: string): Diagnostic {
  return { code: n.code, severity: defaultSeverity(n.code), message: n.message, file, line: 1, column: 1, path: formatPath(n.pointer) };
}

/** At the key of the member the pointer names (the keyword), or the nearest enclosing node that exists. */
function inJson(text: string, root: Node | undefined, n: ImportNote, file: string): Diagnostic {
  if (root === undefined) return atStart(n, file);
  let node: Node | undefined;
  for (let len = n.pointer.length; node === undefined && len >= 0; len--) node = findNodeAtLocation(root, n.pointer.slice(0, len) as (string | number)[]);
  const at = node?.parent?.type === 'property' ? node.parent : node;
  const { line, column } = lineColumn(text, at?.offset ?? 0);
  return { code: n.code, severity: defaultSeverity(n.code), message: n.message, file, line, column, path: formatPath(n.pointer) };
}
