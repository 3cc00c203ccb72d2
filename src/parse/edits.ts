import { isMap, isPair, isScalar, isSeq, Scalar, type Node, type Pair } from 'yaml';
import type { FixEdit } from '../diagnostics/diagnostic.js';
import { entryDocument, type JsonPath, type SourceFile } from './source.js';

/**
 * Text edits of a spec file made from its YAML tree: what a diagnostic's fix carries. Each builder
 * returns `undefined` where the text is not laid out as it expects (flow style where it needs block
 * style, a path that is not there): then no fix is offered rather than a wrong one.
 */

/** The mapping pair (with its parent mapping) or list item at a path. */
interface Found {
  readonly node: unknown;
  readonly pair?: Pair;
  readonly parent?: unknown;
}

/**
 * Inside one entry of a large spec's long list, only that entry's text is parsed (its nodes' ranges moved
 * to the file's offsets): parsing a 1,000-tool spec whole to offer one rename cost ~0.3 s per edit in `mcpgen lsp`.
 */
export function nodeAtPath(source: SourceFile, path: JsonPath): Found | undefined {
  const entry = entryDocument(source, path);
  if (entry !== undefined) shiftRanges(entry.contents, entry.start);
  let found: Found = { node: entry?.contents ?? source.doc.contents };
  for (const seg of entry?.path ?? path) {
    const node = found.node;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair === undefined) return undefined;
      found = { node: pair.value, pair, parent: node };
    } else if (isSeq(node) && typeof seg === 'number') {
      if (node.items[seg] === undefined) return undefined;
      found = { node: node.items[seg], parent: node };
    } else return undefined;
  }
  return found;
}

/** Moves every range in a freshly parsed tree by `by` characters. */
function shiftRanges(node: unknown, by: number): void {
  if (node === null || typeof node !== 'object') return;
  const range = (node as Node).range;
  if (range) (node as { range: [number, number, number] }).range = [range[0] + by, range[1] + by, range[2] + by];
  if (isPair(node)) {
    shiftRanges(node.key, by);
    shiftRanges(node.value, by);
  } else if (isMap(node) || isSeq(node)) for (const item of node.items) shiftRanges(item, by);
}

export function editAt(source: SourceFile, start: number, end: number, newText: string): FixEdit {
  const a = source.lines.linePos(start);
  const b = source.lines.linePos(end);
  return { file: source.file, start: { line: a.line, column: a.col }, end: { line: b.line, column: b.col }, newText };
}

/** Renames the key of the pair at `path`. */
export function renameKeyEdit(source: SourceFile, path: JsonPath, newKey: string): FixEdit | undefined {
  const range = (nodeAtPath(source, path)?.pair?.key as Node | undefined)?.range;
  return range ? editAt(source, range[0], range[1], newKey) : undefined;
}

/** Replaces the scalar at `path` with `value`, written in the scalar's own quoting style. */
export function replaceScalarEdit(source: SourceFile, path: JsonPath, value: string): FixEdit | undefined {
  const node = nodeAtPath(source, path)?.node;
  if (!isScalar(node) || !node.range) return undefined;
  const text =
    node.type === Scalar.QUOTE_SINGLE ? `'${value.replaceAll("'", "''")}'`
    : node.type === Scalar.QUOTE_DOUBLE || !/^[A-Za-z0-9_][\w./-]*$/.test(value) ? JSON.stringify(value)
    : value;
  return editAt(source, node.range[0], node.range[1], text);
}

/** Offset of the start of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** `offset` if it starts a line, else the start of the next line (or the end of the text). */
function nextLineStart(text: string, offset: number): number {
  if (offset === 0 || text[offset - 1] === '\n') return offset;
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** Whole lines `[start, end)` of a block-style pair or list item (its key or dash line through its last line). */
export function blockLines(source: SourceFile, path: JsonPath): { start: number; end: number } | undefined {
  const found = nodeAtPath(source, path);
  if (found === undefined) return undefined;
  const parent = found.parent as (Node & { flow?: boolean; items: unknown[] }) | undefined;
  if (parent === undefined || parent.flow) return undefined;
  const first = found.pair ? (found.pair.key as Node).range : (found.node as Node | null)?.range;
  const last = (found.node as Node | null)?.range ?? first;
  if (!first || !last) return undefined;
  const start = lineStart(source.text, first[0]);
  // Its text before the key/item must be indentation (and the dash of a list item) only.
  if (!/^[ ]*(- +)?$/.test(source.text.slice(start, first[0]))) return undefined;
  return { start, end: nextLineStart(source.text, last[2]) };
}

/** Lines shifted right (`by` > 0) or left, blank lines untouched. */
export function reindent(lines: string, by: number): string {
  if (by === 0) return lines;
  return lines.replace(/^( *)(?=\S)/gm, (spaces: string) => ' '.repeat(Math.max(0, spaces.length + by)));
}

/** Column (0-based) where the text of the line holding `offset` begins. */
export function indentAt(text: string, offset: number): number {
  const start = lineStart(text, offset);
  return /^ */.exec(text.slice(start))![0].length;
}
