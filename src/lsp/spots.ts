import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import { entryDocument, PIECEWISE_MIN_CHARS, type JsonPath, type SourceFile } from '../parse/source.js';
import { splitLongSequences } from '../parse/long-sequences.js';

/** What the cursor is on in a YAML document: the path of the value, and whether it is the key that names it. */
export interface Spot {
  readonly path: JsonPath;
  readonly onKey: boolean;
  /** The key or value scalar under the cursor, when it is one. */
  readonly scalar?: { readonly value: unknown; readonly start: number; readonly end: number };
}

function inRange(node: unknown, offset: number): boolean {
  const range = (node as Node | null | undefined)?.range;
  return range !== undefined && range !== null && offset >= range[0] && offset <= range[1];
}

/** The deepest key or value at `offset` (a cursor just after a word still counts as on it). */
export function spotAt(doc: Document.Parsed, offset: number): Spot | undefined {
  return spotIn(doc.contents, offset);
}

/**
 * spotAt in a file: on a large spec's long list (its tools…), only the entry under the cursor is parsed
 * (entryDocument), not the whole document, which took seconds on a 1,000-tool spec after every edit.
 */
export function spotInSource(source: SourceFile, offset: number): Spot | undefined {
  const entry = entryAt(source, offset);
  if (entry === undefined) return spotAt(source.doc, offset);
  const spot = spotIn(entry.contents, offset - entry.start);
  // Between entries (on a `- `): the list itself, as in the whole document.
  if (spot === undefined || spot.path[0] !== 0) return { path: entry.prefix.slice(0, 1), onKey: false };
  const scalar = spot.scalar && { ...spot.scalar, start: spot.scalar.start + entry.start, end: spot.scalar.end + entry.start };
  return { path: [...entry.prefix, ...spot.path.slice(1)], onKey: spot.onKey, ...(scalar ? { scalar } : {}) };
}

function entryAt(source: SourceFile, offset: number): { contents: unknown; start: number; prefix: JsonPath } | undefined {
  if (source.text.length < PIECEWISE_MIN_CHARS) return undefined;
  for (const seq of splitLongSequences(source.text)?.sequences ?? []) {
    const i = seq.offsets.findLastIndex((start) => start <= offset);
    if (i < 0 || offset > seq.offsets[i]! + seq.entries[i]!.length) continue;
    const entry = entryDocument(source, [seq.key, i]);
    return entry && { contents: entry.contents, start: entry.start, prefix: [seq.key, i] };
  }
  return undefined;
}

function spotIn(contents: unknown, offset: number): Spot | undefined {
  const walk = (node: unknown, path: (string | number)[]): Spot | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (inRange(pair.key, offset)) return { path: [...path, key], onKey: true, scalar: scalarSpan(pair.key) };
        if (inRange(pair.value, offset)) return walk(pair.value, [...path, key]) ?? { path: [...path, key], onKey: false };
      }
      return undefined;
    }
    if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) if (inRange(node.items[i], offset)) return walk(node.items[i], [...path, i]) ?? { path: [...path, i], onKey: false };
      return undefined;
    }
    if (isScalar(node) && inRange(node, offset)) return { path, onKey: false, scalar: scalarSpan(node) };
    return undefined;
  };
  return walk(contents, []);
}

function scalarSpan(node: Node & { value?: unknown }): NonNullable<Spot['scalar']> {
  return { value: node.value, start: node.range![0], end: node.range![1] };
}

/** Start and end offsets of the key (or, without one, the value) at `path`. */
export function rangeAtPath(doc: Document.Parsed, path: JsonPath, part: 'key' | 'value' = 'key'): { start: number; end: number } | undefined {
  let node: unknown = doc.contents;
  let keyNode: unknown;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair === undefined) return undefined;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      keyNode = undefined;
      node = node.items[seg];
    } else return undefined;
  }
  const range = ((part === 'key' ? (keyNode ?? node) : node) as Node | undefined)?.range;
  return range ? { start: range[0], end: range[1] } : undefined;
}
