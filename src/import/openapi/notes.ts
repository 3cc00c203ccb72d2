// What the import skipped or changed, kept as JSON pointers into the OpenAPI document until the end,
// where they become diagnostics at file:line:col (a document read from a URL has no positions: 1:1).
// A JSON description is located with one pass of jsonc-parser's visitor (offsets, linear in the text): the
// YAML parser with positions took minutes on a 6 MB one-line JSON description (loket.nl), and jsonc-parser's
// whole syntax tree (a node per value) cost that file 1.2 s and most of an import's garbage, for a few
// notes. A YAML one is read with positions as the spec files are (parse/source.ts).
import { visit } from 'jsonc-parser';
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
  if (text !== undefined && /^\s*[{[]/.test(text)) {
    const found = locateJson(text, notes.map((n) => n.pointer));
    return notes.map((n) => inJson(text, found, n, file));
  }
  const source = bytes === undefined ? undefined : parseSource(file, bytes).source;
  return notes.map((n) => (source === undefined ? atStart(n, file) : diagnosticAt(source, n.pointer, n.code, n.message, n.code === 'MCPG191' ? 'key' : 'value')));
}

function atStart(n: ImportNote, file: string): Diagnostic {
  return { code: n.code, severity: defaultSeverity(n.code), message: n.message, file, line: 1, column: 1, path: formatPath(n.pointer) };
}

/** A pointer's segment as a key: a string names an object member, a number an array element (as in jsonc-parser's findNodeAtLocation). */
const segment = (s: string | number): string => (typeof s === 'number' ? `#${s}` : `.${s}`);

/** The pointers' trie: each node's offset is where its member's key (an element's or the root's value) starts. */
interface Located {
  readonly children: Map<string, Located>;
  offset?: number;
}

/**
 * Where each pointer and each of its prefixes starts, in one pass of the visitor: the members and elements
 * no pointer names are skipped (callbacks off inside them), and nothing of the document is kept. The
 * first member of a duplicated key counts, as in the syntax tree's lookup.
 */
function locateJson(text: string, pointers: readonly (readonly (string | number)[])[]): Located {
  const root: Located = { children: new Map() };
  for (const pointer of pointers) {
    let node = root;
    for (const s of pointer) {
      const key = segment(s);
      let next = node.children.get(key);
      if (next === undefined) node.children.set(key, (next = { children: new Map() }));
      node = next;
    }
  }
  // Per open object or array: its trie node (undefined: no pointer enters it) and, in an array, the next element's index.
  const open: { readonly node: Located | undefined; index: number }[] = [];
  let member: Located | undefined;
  const value = (offset: number): Located | undefined => {
    const parent = open.at(-1);
    if (parent === undefined) {
      root.offset ??= offset;
      return root;
    }
    if (parent.index < 0) return member;
    const node = parent.node?.children.get(segment(parent.index++));
    if (node !== undefined) node.offset ??= offset;
    return node;
  };
  const begin = (array: boolean) => (offset: number): boolean => {
    const node = value(offset);
    open.push({ node, index: array ? 0 : -1 });
    return node !== undefined && node.children.size > 0;
  };
  const end = (): void => void open.pop();
  visit(text, {
    onObjectBegin: begin(false),
    onArrayBegin: begin(true),
    onObjectEnd: end,
    onArrayEnd: end,
    onObjectProperty: (name, offset) => {
      const node = open.at(-1)?.node?.children.get(segment(name));
      // A duplicated key: the first member was the one looked up.
      member = node?.offset === undefined ? node : undefined;
      if (member !== undefined) member.offset = offset;
    },
    onLiteralValue: (_v, offset) => void value(offset),
  });
  return root;
}

/** At the key of the member the pointer names (the keyword), or the nearest enclosing node that exists. */
function inJson(text: string, root: Located, n: ImportNote, file: string): Diagnostic {
  if (root.offset === undefined) return atStart(n, file);
  let at = root.offset;
  let node: Located | undefined = root;
  for (const s of n.pointer) {
    node = node.children.get(segment(s));
    if (node?.offset === undefined) break;
    at = node.offset;
  }
  const { line, column } = lineColumn(text, at);
  return { code: n.code, severity: defaultSeverity(n.code), message: n.message, file, line, column, path: formatPath(n.pointer) };
}
