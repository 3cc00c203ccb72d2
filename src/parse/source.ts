import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { defaultSeverity, formatPath, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { cachedEntries, entryCacheEnabled, keepUnchangedValues } from './entry-cache.js';
import { fastValue, NOT_FAST } from './fast-value.js';
import { knownValue } from './known-values.js';
import { keptValue } from './value-cache.js';
import { splitLongSequences, type CutSequence } from './long-sequences.js';
import { withPlainEnv } from './plain-env.js';
import { NOT_PLAIN, plainValue } from './plain-value.js';
import { speedOff } from '../common/speed-off.js';

export type PathSegment = string | number;
export type JsonPath = readonly PathSegment[];

/**
 * A parsed spec file: its text, its YAML document with source ranges, and the plain JS value. A large
 * file read in pieces (long-sequences.ts) parses its whole document only when a position is asked for.
 */
export interface SourceFile {
  readonly file: string;
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  /** `undefined` when the document could not be turned into data (syntax errors, alias bomb). */
  readonly value: unknown;
}

/**
 * Above this many values added by alias expansion a document is refused before it is expanded
 * (billion laughs, or a few hundred aliases of one huge list). Counted over the YAML tree, so the
 * refusal costs one pass over what the file literally holds.
 */
export const MAX_ALIAS_EXPANSION = 100_000;

export interface ParseResult {
  readonly source: SourceFile;
  readonly diagnostics: Diagnostic[];
}

export function parseSource(file: string, bytes: Uint8Array): ParseResult {
  const diagnostics: Diagnostic[] = [];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const goodPrefix = validUtf8Prefix(bytes);
    text = new TextDecoder('utf-8').decode(bytes.subarray(0, goodPrefix));
    const lines = text.split('\n');
    diagnostics.push({
      code: 'MCPG001',
      severity: 'error',
      message: `file is not valid UTF-8 (first bad byte at offset ${goodPrefix})`,
      file,
      line: lines.length,
      column: (lines[lines.length - 1]?.length ?? 0) + 1,
      path: '$',
    });
  }
  const control = forbiddenCharacter(text);
  if (control !== undefined) {
    const { line, column } = lineColumn(text, control.offset);
    diagnostics.push({ code: 'MCPG001', severity: 'error', message: control.message, file, line, column, path: '$' });
  }
  if (diagnostics.length === 0) {
    // A text an importer just wrote from a value (known-values.ts), or wrote in an earlier process
    // (value-cache.ts): that value, not a second read.
    const value = knownValue(text) ?? keptValue(text) ?? quickValue(text, file);
    if (value !== undefined) return { source: lazySource(file, text, value), diagnostics };
  }
  const { doc, lines } = parseWhole(text);
  const base = { file, text, doc, lines };
  for (const err of yamlErrors(doc.errors)) {
    const pos = lines.linePos(err.pos[0]);
    const code: DiagnosticCode = err.code === 'DUPLICATE_KEY' ? 'MCPG002' : 'MCPG001';
    const message = err.code === 'DUPLICATE_KEY' ? 'duplicate key: each key may appear once in a mapping'
      : err.code === 'TAB_AS_INDENT' ? 'a tab indents this line: YAML indents with spaces only; replace the tab with spaces' : firstLine(err.message);
    diagnostics.push({ code, severity: 'error', message, file, line: pos.line, column: pos.col, path: '$' });
  }
  for (const warning of doc.warnings) {
    if (warning.code !== 'TAG_RESOLVE_FAILED') continue;
    const pos = lines.linePos(warning.pos[0]);
    const tag = text.slice(warning.pos[0], warning.pos[1]);
    const message = `unknown YAML tag ${JSON.stringify(tag)}: specs are plain YAML data (mappings, lists, strings, numbers, booleans, null); write the value without a tag`;
    diagnostics.push({ code: 'MCPG001', severity: 'error', message, file, line: pos.line, column: pos.col, path: '$' });
  }
  if (diagnostics.length > 0) return { source: { ...base, value: undefined }, diagnostics };
  // Without an anchor (`&name`) no alias resolves, so there is nothing to expand: skip the walk.
  const expansion = text.includes('&') ? aliasExpansionProblem(doc) : undefined;
  if (expansion !== undefined) {
    const pos = lines.linePos(expansion.offset);
    diagnostics.push({ code: 'MCPG007', severity: 'error', message: expansion.message, file, line: pos.line, column: pos.col, path: '$' });
    return { source: { ...base, value: undefined }, diagnostics };
  }
  try {
    // Expansion is bounded above; toJS shares the anchored value between its aliases (so does plainValue).
    const plain = plainValue(doc);
    const value: unknown = plain === NOT_PLAIN ? doc.toJS({ maxAliasCount: -1 }) : plain;
    return { source: { ...base, value }, diagnostics };
  } catch (e) {
    diagnostics.push({
      code: 'MCPG001',
      severity: 'error',
      message: `cannot read the YAML document: ${firstLine(e instanceof Error ? e.message : String(e))}`,
      file,
      line: 1,
      column: 1,
      path: '$',
    });
    return { source: { ...base, value: undefined }, diagnostics };
  }
}

/**
 * The value of a text without yaml's syntax tree (fast-value.ts, then long-sequences.ts), or `undefined`
 * when the whole document must be parsed. `--watch` reads a large spec by pieces first: its entry cache
 * keeps an unchanged entry's object from run to run, which a whole-text read would not.
 */
function quickValue(text: string, file: string): unknown {
  const large = text.length >= PIECEWISE_MIN_CHARS && !speedOff('long-sequences');
  if (large && entryCacheEnabled()) return piecewiseValue(text, file);
  const fast = fastValue(text);
  if (fast !== NOT_FAST) return fast;
  return large ? piecewiseValue(text, file) : undefined;
}

// resolveKnownTags:false leaves YAML 1.1 tags (!!binary, !!set, !!timestamp…) unresolved: they make
// values JSON cannot hold, and are reported like any other tag mcpgen does not know.
const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: true, resolveKnownTags: false } as const;

function parseWhole(text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  return { doc: withPlainEnv(() => parseDocument(text, { ...PARSE_OPTIONS, lineCounter: lines }), text.length), lines };
}

/** From this size on a spec is first read in pieces (the gain shows from about 100 KB). */
export const PIECEWISE_MIN_CHARS = 128 * 1024;

/**
 * The value of a large spec read a piece at a time (long-sequences.ts; each piece by js-yaml where
 * fast-value.ts takes it, else by yaml), or `undefined` when any piece has an error, a warning, an
 * anchor or anything plainValue does not take: the caller then parses the whole document, which
 * reports whatever it is with its position. (Exported for its tests.)
 */
export function piecewiseValue(text: string, file = ''): unknown {
  return withPlainEnv(() => valueOfPieces(text, file));
}

function valueOfPieces(text: string, file: string): unknown {
  const split = splitLongSequences(text);
  if (split === undefined) return undefined;
  const read = (piece: string): unknown => {
    const fast = fastValue(piece);
    if (fast !== NOT_FAST) return fast;
    const doc = parseDocument(piece, PARSE_OPTIONS);
    if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
    // An anchor could be named by an alias in another piece, and expansion is bounded over the whole file.
    if (piece.includes('&') && hasAnchor(doc.contents)) return undefined;
    const value = plainValue(doc);
    return value === NOT_PLAIN ? undefined : value;
  };
  const root = read(split.skeleton);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  const record = root as Record<string, unknown>;
  if (entryCacheEnabled()) keepUnchangedValues(file, record);
  for (const sequence of split.sequences) {
    if (!Object.hasOwn(record, sequence.key) || record[sequence.key] !== null) return undefined;
    const entries = entryCacheEnabled() ? cachedEntries(sequence.entries, read) : readPieces(sequence, read);
    if (entries === undefined) return undefined;
    record[sequence.key] = entries;
  }
  return record;
}

function readPieces(sequence: CutSequence, read: (piece: string) => unknown): unknown[] | undefined {
  const entries: unknown[] = [];
  for (let i = 0; i < sequence.pieces.length; i++) {
    const value = read(sequence.pieces[i]!);
    if (!Array.isArray(value) || value.length !== sequence.counts[i]) return undefined;
    for (const entry of value) entries.push(entry);
  }
  return entries;
}

function hasAnchor(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if ((node as Node).anchor) return true;
  if (isMap(node)) return node.items.some((pair) => hasAnchor(pair.key) || hasAnchor(pair.value));
  if (isSeq(node)) return node.items.some(hasAnchor);
  return false;
}

/**
 * A source whose YAML document (for diagnostics' positions) is parsed on first use. Its line starts
 * come from the text alone: a fix's edit inside one entry (edits.ts) needs them, not the document.
 */
function lazySource(file: string, text: string, value: unknown): SourceFile {
  let doc: Document.Parsed | undefined;
  let lines: LineCounter | undefined;
  return {
    file,
    text,
    value,
    get doc() {
      return (doc ??= parseWhole(text).doc);
    },
    get lines() {
      return (lines ??= linesOf(text));
    },
  };
}

/** The line starts yaml's LineCounter would collect while parsing `text`. */
function linesOf(text: string): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  return lines;
}

/** The same file with another value (validation's copy without broken entries); a lazy document stays lazy. */
export function withValue(source: SourceFile, value: unknown): SourceFile {
  const { file, text } = source;
  return {
    file,
    text,
    value,
    get doc() {
      return source.doc;
    },
    get lines() {
      return source.lines;
    },
  };
}

/**
 * Why expanding the document's aliases is refused: an alias inside the node it names (a cycle), or
 * more than MAX_ALIAS_EXPANSION values added in all. One pass over the tree; each anchored node's
 * expanded size is remembered, so an alias costs one lookup however large its target.
 */
function aliasExpansionProblem(doc: Document.Parsed): { offset: number; message: string } | undefined {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let added = 0;
  let problem: { offset: number; message: string } | undefined;
  const size = (node: unknown): number => {
    if (problem !== undefined || node === null || typeof node !== 'object') return 1;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const at = node.range?.[0] ?? 0;
      if (target === undefined) return 1; // toJS reports the unresolved alias
      if (open.has(target)) {
        problem = { offset: at, message: `refusing to expand YAML alias *${node.source}: it sits inside the node it names, which would make an endless value` };
        return 1;
      }
      const n = sizes.get(target) ?? 1;
      added += n;
      if (added > MAX_ALIAS_EXPANSION) {
        problem = {
          offset: at,
          message: `refusing to expand YAML aliases: they would add more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} values (alias *${node.source} adds ${n.toLocaleString('en-US')}); write the shared part once, or use $defs and $ref for shared schemas`,
        };
      }
      return n;
    }
    const anchored = node as Node;
    if (anchored.anchor) anchors.set(anchored.anchor, anchored);
    open.add(anchored);
    let n = 1;
    if (isMap(node)) for (const pair of node.items) n += size(pair.key) + size(pair.value);
    else if (isSeq(node)) for (const item of node.items) n += size(item);
    open.delete(anchored);
    if (anchored.anchor) sizes.set(anchored, n);
    return n;
  };
  size(doc.contents);
  return problem;
}

/** YAML 1.2 allows only printable characters in a stream (c-printable); escapes in quoted strings are fine. */
function forbiddenCharacter(text: string): { offset: number; message: string } | undefined {
  const m = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]/.exec(text);
  if (m === null) return undefined;
  const c = m[0].charCodeAt(0);
  const name = c === 0 ? ' (NUL)' : '';
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  return {
    offset: m.index,
    message: `raw control character U+${hex}${name} is not allowed in YAML; write it as an escape in a double-quoted string ("\\u${hex.toLowerCase()}")`,
  };
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Where a JSON path points in the file: the value node, or with `key` the mapping key that names it. */
export function locate(source: SourceFile, path: JsonPath, target: 'value' | 'key' = 'value'): { line: number; column: number } {
  const entry = entryOffset(source, path, target);
  if (entry !== undefined) return linePos(source.text, entry);
  return pos(source, offsetIn(source.doc.contents, path, target));
}

/** Where `path` leads inside a parsed node: its value's start (or its key's, for `key`), else the deepest node that exists. */
function offsetIn(contents: unknown, path: JsonPath, target: 'value' | 'key'): number {
  let node: unknown = contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && scalarKey(p.key) === String(seg));
      if (pair === undefined) break;
      const keyStart = rangeStart(pair.key);
      if (last && target === 'key' && keyStart !== undefined) return keyStart;
      node = pair.value;
      offset = rangeStart(node) ?? keyStart ?? offset;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      node = item;
      offset = rangeStart(node) ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

// A large spec's positions inside one entry of a long list (`tools[412].input…`, what `mcpgen breaking`
// asks for) come from that entry's text alone: parsing the whole document for one position cost ~1 s
// on a 1,000-tool spec. The cut (long-sequences.ts) keeps each entry's exact text and where it starts.
function entryOffset(source: SourceFile, path: JsonPath, target: 'value' | 'key'): number | undefined {
  const entry = entryDocument(source, path);
  return entry === undefined ? undefined : entry.start + offsetIn(entry.contents, entry.path, target);
}

/**
 * The entry of a large spec's long list that `path` leads into (`tools[412]…`), parsed alone: its YAML
 * contents (a one-entry block sequence, offsets from the entry's start), where the entry starts in the
 * file, and `path` inside the contents. `undefined` when the file is small or not cut that way.
 */
export function entryDocument(source: SourceFile, path: JsonPath): { contents: unknown; start: number; path: JsonPath } | undefined {
  const text = source.text;
  if (text.length < PIECEWISE_MIN_CHARS || path.length < 2 || typeof path[0] !== 'string' || typeof path[1] !== 'number') return undefined;
  const seq = splitLongSequences(text)?.sequences.find((s) => s.key === path[0]);
  const index = path[1];
  if (seq === undefined || index >= seq.entries.length) return undefined;
  const doc = parseDocument(seq.entries[index]!, PARSE_OPTIONS);
  if (doc.errors.length > 0) return undefined;
  return { contents: doc.contents, start: seq.offsets[index]!, path: [0, ...path.slice(2)] };
}

function linePos(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

export function diagnosticAt(
  source: SourceFile,
  path: JsonPath,
  code: DiagnosticCode,
  message: string,
  target: 'value' | 'key' = 'value',
): Diagnostic {
  const { line, column } = locate(source, path, target);
  return { code, severity: defaultSeverity(code), message, file: source.file, line, column, path: formatPath(path) };
}

function pos(source: SourceFile, offset: number): { line: number; column: number } {
  const p = source.lines.linePos(offset);
  return { line: p.line, column: p.col };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

function scalarKey(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function validUtf8Prefix(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    if (!decodes(bytes.subarray(i, i + len))) return i;
    i += len;
  }
  return i;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
function decodes(bytes: Uint8Array): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The parser's errors worth reporting. A tab used as indentation makes every later line of its block look
 * misplaced (a dozen "All mapping items must start at the same column"…): report the tabs alone, the
 * only thing to fix, and duplicate keys, which stand on their own.
 */
function yamlErrors(errors: Document.Parsed['errors']): Document.Parsed['errors'] {
  if (!errors.some((e) => e.code === 'TAB_AS_INDENT')) return errors;
  return errors.filter((e) => e.code === 'TAB_AS_INDENT' || e.code === 'DUPLICATE_KEY');
}
