import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { FixEdit } from '../diagnostics/diagnostic.js';
import { blockLines, editAt, indentAt, lineStart, nodeAtPath, reindent } from './edits.js';
import type { JsonPath, SourceFile } from './source.js';

/**
 * Fixes that move a piece of a spec to where it belongs, as text edits of block-style YAML (edits.ts).
 * `undefined` where the text is not laid out as they expect.
 */

/** Cut `[start, end)` and put `text` at `at`: one edit when the two meet. */
function cutAndInsert(source: SourceFile, cut: { start: number; end: number }, at: number, text: string): FixEdit[] {
  if (at === cut.end || at === cut.start) return [editAt(source, cut.start, cut.end, text)];
  return [editAt(source, cut.start, cut.end, ''), editAt(source, at, at, text)];
}

/** A list item moved to the end of another top-level list (made when missing), one of its keys renamed on the way. */
export function moveItemToList(source: SourceFile, itemPath: JsonPath, listKey: string, rename?: { from: string; to: string }): FixEdit[] | undefined {
  const span = blockLines(source, itemPath);
  const list = nodeAtPath(source, itemPath.slice(0, -1))?.node;
  if (span === undefined || !isSeq(list)) return undefined;
  const text = source.text;
  let item = text.slice(span.start, span.end);
  const renamed = rename && (nodeAtPath(source, [...itemPath, rename.from])?.pair?.key as Node | undefined)?.range;
  if (renamed) item = item.slice(0, renamed[0] - span.start) + rename.to + item.slice(renamed[1] - span.start);
  if (!item.endsWith('\n')) item += '\n';
  // The last item leaves its list empty: the list's key goes too.
  const cut = list.items.length === 1 ? blockLines(source, itemPath.slice(0, -1)) : span;
  if (cut === undefined) return undefined;
  const dash = indentAt(text, span.start);
  const target = nodeAtPath(source, [listKey])?.node;
  if (target === undefined) {
    const end = text.length;
    return cutAndInsert(source, cut, end, `${text.endsWith('\n') || end === 0 ? '' : '\n'}${listKey}:\n${reindent(item, 2 - dash)}`);
  }
  if (!isSeq(target) || target.flow || target.items.length === 0) return undefined;
  const last = blockLines(source, [listKey, target.items.length - 1]);
  if (last === undefined) return undefined;
  return cutAndInsert(source, cut, last.end, reindent(item, indentAt(text, last.start) - dash));
}

/** A pair moved out of the mapping it sits in, to just after that mapping's own pair, one level less indented. */
export function movePairUp(source: SourceFile, pairPath: JsonPath): FixEdit[] | undefined {
  const span = blockLines(source, pairPath);
  const parent = blockLines(source, pairPath.slice(0, -1));
  if (span === undefined || parent === undefined) return undefined;
  const text = source.text;
  const moved = reindent(text.slice(span.start, span.end), indentAt(text, parent.start) - indentAt(text, span.start));
  return cutAndInsert(source, span, parent.end, moved);
}

/** A `key: value` pair moved into the mapping at `into` (block or flow style), its value's text kept. */
export function movePairInto(source: SourceFile, pairPath: JsonPath, into: JsonPath): FixEdit[] | undefined {
  const span = blockLines(source, pairPath);
  const found = nodeAtPath(source, pairPath);
  const target = nodeAtPath(source, into)?.node;
  if (span === undefined || !isScalar(found?.node) || !found.node.range || !isMap(target) || !target.range) return undefined;
  const pair = `${String(pairPath[pairPath.length - 1])}: ${source.text.slice(found.node.range[0], found.node.range[1])}`;
  let at: number;
  let text: string;
  if (target.flow) {
    const last = target.items[target.items.length - 1];
    const end = (last?.value as Node | null | undefined)?.range?.[1] ?? (last?.key as Node | undefined)?.range?.[1];
    if (last !== undefined && end === undefined) return undefined;
    at = end ?? target.range[0] + 1;
    text = last === undefined ? pair : `, ${pair}`;
  } else {
    const first = (target.items[0]?.key as Node | undefined)?.range;
    if (!first) return undefined;
    at = lineStart(source.text, first[0]);
    text = `${' '.repeat(indentAt(source.text, first[0]))}${pair}\n`;
  }
  if (at >= span.start && at < span.end) return undefined;
  return [editAt(source, span.start, span.end, ''), editAt(source, at, at, text)];
}
