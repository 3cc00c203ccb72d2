// A large spec is mostly one or two long lists (`tools:`, `resources:`…) of small mappings. Parsed as
// one YAML document, yaml keeps the whole concrete syntax tree and every node alive until the end, so
// the young-generation GC copies them again and again: a third of a 1.2 MB spec's 1.0 s parse. Parsed
// a list item at a time, each item's tree dies young: 0.55 s for the same value. This module finds
// where such lists may be cut using only what YAML's indentation rules guarantee, and gives up (the
// caller parses the whole document) on anything it is not sure of.
//
// Why a cut is safe: in a block sequence whose `- ` entries sit at indentation k, every line inside
// an entry is indented more than k. A block scalar's lines are indented more than the mapping that
// holds them, and a multi-line flow scalar or collection continues on lines indented more than that
// mapping (YAML 1.2, s-flow-line-prefix(n+1)). So a line that starts with `- ` at exactly k begins
// the next entry, whatever the entries hold; and any line indented less ends the sequence.

/** One top-level `key:` whose value is a long block sequence, cut into runs of whole entries. */
export interface CutSequence {
  readonly key: string;
  /** The entries' text, each piece a block sequence of `counts[i]` whole entries. */
  readonly pieces: readonly string[];
  readonly counts: readonly number[];
  /** Each entry's own text (a one-entry block sequence): what --watch's entry cache is keyed by. */
  readonly entries: readonly string[];
  /** Where each entry starts in the text. */
  readonly offsets: readonly number[];
}

export interface SplitSpec {
  /** The document with the cut sequences' entries removed: each cut key reads as `key: null`. */
  readonly skeleton: string;
  readonly sequences: readonly CutSequence[];
}

/** Below this many entries a sequence stays in the skeleton: cutting it gains nothing. */
const MIN_ENTRIES = 16;
/** Entries per piece: small enough for each piece's syntax tree to die young, yet few documents. */
const PIECE_BYTES = 2048;

// A top-level key with nothing after the colon but a comment. Keys of other shapes (quoted, complex,
// with anchors or tags) leave their value in the skeleton.
const BARE_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(?:#.*)?$/;

/**
 * Cuts the long top-level block sequences of a spec's text, or `undefined` when the text has
 * anything that could make the cuts wrong: directives or document markers, a line break other than
 * \n or \r\n, a top-level value that is not a plain mapping, or a line whose indentation does not
 * fit the sequence around it. Such a text is simply parsed whole.
 */
export function splitLongSequences(text: string): SplitSpec | undefined {
  // A run reads a file's value and then asks positions in it (source.ts): one cut serves both.
  if (lastCut?.text !== text) lastCut = { text, split: cut(text) };
  return lastCut.split;
}

/** The text cut last, and its cut. */
let lastCut: { readonly text: string; readonly split: SplitSpec | undefined } | undefined;

function cut(text: string): SplitSpec | undefined {
  if (/\r(?!\n)|[\u0085\u2028\u2029]/.test(text)) return undefined;
  const lines = lineStarts(text);
  const sequences: CutSequence[] = [];
  let skeleton = '';
  let kept = 0; // text before this offset has been copied to the skeleton (or cut)
  let i = 0;
  while (i < lines.length) {
    if (blankOrCommentAt(text, lines[i]!)) {
      i++;
      continue;
    }
    const line = lineAt(text, lines, i);
    if (/^(?:---|\.\.\.)(?:[ \t]|$)|^%/.test(line)) return undefined;
    if (line.startsWith(' ') || line.startsWith('\t')) {
      i++;
      continue; // inside the value of the last top-level key
    }
    const bare = BARE_KEY.exec(line.replace(/\r$/, ''));
    i++;
    if (bare === null) continue;
    // The value starts on a following line: is it a block sequence?
    let first = i;
    while (first < lines.length && blankOrCommentAt(text, lines[first]!)) first++;
    if (first >= lines.length) break;
    const k = indentAt(text, lines[first]!);
    if (!entryAt(text, lines[first]!, k)) continue;
    const starts: number[] = [];
    let end = first;
    // Character by character: this loop sees every line of the file (a regex and a slice per line cost 20 ms on 1.2 MB).
    for (; end < lines.length; end++) {
      const from = lines[end]!;
      if (blankOrCommentAt(text, from)) continue;
      const indent = indentAt(text, from);
      if (indent > k) continue;
      if (indent === k && entryAt(text, from, k)) {
        starts.push(end);
        continue;
      }
      if (indent === 0) break; // the next top-level key (the skeleton's parse judges it)
      return undefined; // indented, but less than the entries or not an entry: not plain YAML layout
    }
    i = end;
    if (starts.length < MIN_ENTRIES) continue;
    const stop = end < lines.length ? lines[end]! : text.length;
    const pieces: string[] = [];
    const counts: number[] = [];
    for (let s = 0; s < starts.length; ) {
      const from = lines[starts[s]!]!;
      let e = s + 1;
      while (e < starts.length && lines[starts[e]!]! - from < PIECE_BYTES) e++;
      pieces.push(text.slice(from, e < starts.length ? lines[starts[e]!]! : stop));
      counts.push(e - s);
      s = e;
    }
    const offsets = starts.map((s) => lines[s]!);
    const entries = offsets.map((from, n) => text.slice(from, offsets[n + 1] ?? stop));
    sequences.push({ key: bare[1]!, pieces, counts, entries, offsets });
    skeleton += text.slice(kept, lines[starts[0]!]!);
    kept = stop;
  }
  if (sequences.length === 0) return undefined;
  return { skeleton: skeleton + text.slice(kept), sequences };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1 && at + 1 < text.length; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function lineAt(text: string, starts: readonly number[], i: number): string {
  const from = starts[i]!;
  const next = starts[i + 1];
  return text.slice(from, next === undefined ? text.length : next - 1);
}

const SPACE = 0x20;
const TAB = 0x09;
const DASH = 0x2d;
const HASH = 0x23;
const CR = 0x0d;
const LF = 0x0a;

/** Whether the line starting at `from` is blank or only a comment (read in place, without slicing it). */
function blankOrCommentAt(text: string, from: number): boolean {
  let at = from;
  let c = text.charCodeAt(at);
  while (c === SPACE || c === TAB) c = text.charCodeAt(++at);
  return c === HASH || c === LF || (c === CR && text.charCodeAt(at + 1) === LF) || Number.isNaN(c);
}

/** The spaces the line starting at `from` is indented by. */
function indentAt(text: string, from: number): number {
  let indent = 0;
  while (text.charCodeAt(from + indent) === SPACE) indent++;
  return indent;
}

/** Whether the line starting at `from` holds a sequence entry's `-` at `indent`, followed by a space, a tab or its end. */
function entryAt(text: string, from: number, indent: number): boolean {
  if (text.charCodeAt(from + indent) !== DASH) return false;
  const c = text.charCodeAt(from + indent + 1);
  return c === SPACE || c === TAB || c === LF || c === CR || Number.isNaN(c);
}
