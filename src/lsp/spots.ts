import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { JsonPath } from '../parse/source.js';

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
  return walk(doc.contents, []);
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
