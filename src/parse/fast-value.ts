// Why two YAML libraries. `yaml` keeps a concrete syntax tree with every node's source range: what
// diagnostics need for their positions, and the only reader whose errors (syntax, duplicate keys, tabs,
// tags, alias bombs) mcpgen reports. That tree is the cost: reading a 1.25 MB spec of 1,000 tools into
// a value took ~450 ms (a third of a cold `generate`), GitHub's 6.6 MB imported spec ~1.2 s. js-yaml
// (5.x, CORE schema) builds the value from a flat event list in ~40 ms for the same 1.25 MB, deep-equal.
// With this reader (busy 2-core machine): parseSource 113 ms of a 914 ms profiled `generate` of 1,000
// tools; GitHub's spec generates in ~2.1 s instead of ~3.5 s.
//
// The rule: `yaml` decides validity and positions; js-yaml only reads the value of texts both read
// alike. A text is taken here only when js-yaml reads it without an error and it holds none of what
// the two are known to read differently (or that `yaml` reports and js-yaml accepts), checked on the
// text and on js-yaml's events. Anything else returns NOT_FAST and the caller reads the text with
// `yaml` exactly as before. test/parse/fast-value.test.ts compares the two on every spec in the
// repository, on hand-picked texts and on thousands of generated ones. Most gates below guard a
// disagreement that test shows when the gate is removed; the others (said so where they stand) guard
// forms found read alike but kept out anyway, cheaply, as specs do not use them.
import { constructFromEvents, CORE_SCHEMA, EVENT_ID, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import { speedOff } from '../common/speed-off.js';

export const NOT_FAST: unique symbol = Symbol('not fast');

/**
 * Text-level gates, one regex pass: a lone CR (yaml: one line, js-yaml: a line break), a byte order mark
 * anywhere (yaml drops repeated ones, js-yaml keeps them in the key), a tab in a line's indentation (in a
 * multi-line quoted or plain scalar yaml refuses a blank line with a tab, js-yaml reads it blank), a
 * directive or document marker at a line's start (`...` before any content: yaml sees two documents),
 * a block scalar header with an indentation indicator (`>1`: the two keep trailing blank lines apart); and, found read
 * alike but left to yaml all the same, Unicode line breaks and a `<<` key (a merge key to YAML 1.1 readers).
 */
const TEXT_GATE = /\r(?!\n)|[\u0085\u2028\u2029\ufeff]|<<['"]?[ \t]*:|(?:^|\n)(?: *\t|%|---|\.\.\.)|[|>][-+]?[1-9][-+]?[ \t]*(?:#[^\n]*)?(?:\r?\n|$)/;

/** yaml refuses an implicit key whose `:` is more than 1024 characters from its start; js-yaml does not. */
const MAX_KEY_SPAN = 1000;

/** Plain scalars yaml resolves to a number that js-yaml leaves a string: beyond ±1.8e308, yaml's Infinity. */
const HUGE_NUMBER = /[eE][-+]?[0-9]{3}|[0-9a-fA-F]{250}/; // 256 hex digits can reach 2^1024

/**
 * In a double-quoted scalar: a `\U` escape beyond U+10FFFF (yaml refuses it, js-yaml reads two lone
 * surrogates), or an escaped line break followed by a blank line (the two fold it differently).
 */
const DOUBLE_QUOTED_GATE = /\\U(?!00(?:0[0-9a-fA-F]|10)[0-9a-fA-F]{4})|\\\r?\n[ \t]*\r?\n/;

/** Whether a plain key is a null (yaml: key '', js-yaml: key 'null'). */
const NULL_KEY = /^(?:~|null|Null|NULL)?$/;

let enabled = true;

/** `read()` with every text read by `yaml` alone: the reference the tests compare this reader with. */
export function withoutFastValue<T>(read: () => T): T {
  const was = enabled;
  enabled = false;
  try {
    return read();
  } finally {
    enabled = was;
  }
}

/** The plain value of a spec text read by js-yaml, or NOT_FAST when `yaml` must read it (see above). */
export function fastValue(text: string): unknown {
  if (!enabled || TEXT_GATE.test(text) || speedOff('yaml-fast-path')) return NOT_FAST;
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return NOT_FAST;
  }
  if (!plainEvents(text, events)) return NOT_FAST;
  try {
    const documents = constructFromEvents(events, { source: text, schema: CORE_SCHEMA });
    return documents.length === 1 ? documents[0] : NOT_FAST;
  } catch {
    return NOT_FAST;
  }
}

/**
 * One pass over the events: one document without explicit markers or directives (`--- |` folds
 * differently), a mapping or a sequence (kept out anyway); no anchor or alias (yaml refuses recursive
 * aliases and alias bombs, js-yaml builds them); no tag on a scalar (`!!float 1`: yaml refuses, js-yaml reads 1) nor, kept out anyway, on a
 * collection; no null key (yaml: '', js-yaml: 'null'); no key whose `:` is far from its start; no plain
 * scalar too big a number; nothing of DOUBLE_QUOTED_GATE in a double-quoted scalar; no plain scalar
 * after a closing quote, `]` or `}` on its line; no value scalar right after a comment line.
 */
function plainEvents(text: string, events: readonly Event[]): boolean {
  // For each open collection: -1 for a sequence, else the count of the mapping's scalars and collections so far (even: a key is next).
  const open: number[] = [];
  let documents = 0;
  const lineStart = lineStarts(text);
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (++documents > 1 || event.explicitStart || event.explicitEnd || event.directives.length > 0) return false;
        open.push(-1);
        break;
      case EVENT_ID.ALIAS:
        return false;
      case EVENT_ID.POP:
        open.pop();
        countNode(open);
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
        if (event.anchorStart !== -1 || event.tagStart !== -1) return false;
        if (isKey(open)) return false; // a complex key (js-yaml refuses them anyway)
        open.push(event.type === EVENT_ID.MAPPING ? 0 : -1);
        break;
      case EVENT_ID.SCALAR: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) return false;
        if (open.length === 1) return false; // a document that is one scalar: no spec, kept out anyway
        const plain = event.style === SCALAR_STYLE.PLAIN;
        const key = isKey(open);
        if (key) {
          if (plain && event.valueEnd - event.valueStart <= 4 && NULL_KEY.test(text.slice(event.valueStart, event.valueEnd))) return false;
          const colon = text.indexOf(':', event.valueEnd);
          if (colon === -1 || colon - event.valueStart > MAX_KEY_SPAN) return false;
        }
        if (plain && event.valueStart !== -1) {
          if (mayBeHugeNumber(text, event.valueStart, event.valueEnd)) return false;
          if (afterClosing(text, event.valueStart)) return false;
        }
        if (!key && event.style !== SCALAR_STYLE.LITERAL_BLOCK && event.style !== SCALAR_STYLE.FOLDED_BLOCK && event.valueStart !== -1 && afterComment(text, event.valueStart, lineStart)) return false;
        if (event.style === SCALAR_STYLE.DOUBLE_QUOTED && DOUBLE_QUOTED_GATE.test(text.slice(event.valueStart, event.valueEnd))) return false;
        countNode(open);
        break;
      }
    }
  }
  return documents === 1;
}

/**
 * Whether `]`, `}` or a closing quote comes before `at` on its line (spaces aside): yaml refuses
 * `- {a: b}  c: d`, js-yaml reads a key `c` of the mapping around the sequence.
 */
function afterClosing(text: string, at: number): boolean {
  let i = at - 1;
  let c = text.charCodeAt(i);
  while (c === 0x20 || c === 0x09) c = text.charCodeAt(--i);
  return c === 0x5d || c === 0x7d || c === 0x27 || c === 0x22; // ] } ' "
}

/**
 * Whether a comment line comes right before `at` (blank lines aside): yaml refuses some values there
 * that js-yaml reads (`- a:\n  #c\n    x\n    y`, `a:\n#c\n  -x`). Keys after a comment are common
 * and read alike; a value on the line after a comment is rare in specs.
 */
function afterComment(text: string, at: number, lineStart: (i: number) => number): boolean {
  let i = at - 1;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(--i));
  let from = lineStart(i);
  while (text.charCodeAt(from) === 0x20) from++;
  return text.charCodeAt(from) === 0x23 && from <= i; // #
}

/**
 * `text.lastIndexOf('\n', i) + 1`, remembering the line last asked about: a spec written on one long
 * line (JSON is YAML) asks of that line once per scalar, and each search back to its start made the
 * gate quadratic (a 5,000-property input schema on one line: 2 s).
 */
function lineStarts(text: string): (i: number) => number {
  let from = -1;
  let to = -1;
  return (i) => {
    if (i >= from && i < to) return from;
    from = text.lastIndexOf('\n', i) + 1;
    const end = text.indexOf('\n', Math.max(i, 0));
    to = end === -1 ? text.length : end;
    // i before the text (-1): lastIndexOf looked at offset 0 alone; nothing to remember.
    if (i < 0) {
      const answer = from;
      from = to = -1;
      return answer;
    }
    return from;
  };
}

function isKey(open: readonly number[]): boolean {
  const top = open[open.length - 1]!;
  return top >= 0 && top % 2 === 0;
}

function countNode(open: number[]): void {
  const top = open.length - 1;
  if (top >= 0 && open[top]! >= 0) open[top] = open[top]! + 1;
}

/** Only plain scalars that start like a number and are long enough to overflow are looked at. */
function mayBeHugeNumber(text: string, from: number, to: number): boolean {
  if (to - from < 5) return false;
  const c = text.charCodeAt(from);
  const numeric = (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e; // 0-9 + - .
  return numeric && HUGE_NUMBER.test(text.slice(from, to));
}
