// Seeded random YAML texts for test/parse/fast-value.test.ts: specs' ordinary forms mixed with every form
// where js-yaml and `yaml` are known or suspected to read a text differently (keys of every type,
// numbers of every spelling, block scalar indicators, multi-line scalars, flow collections, anchors,
// tags, merge keys, document markers, BOM, CRLF, tabs), then sometimes broken by a random edit.
import { parseDocument } from 'yaml';
import { prng } from '../support/prng.js';

export type Random = () => number;

/** The shared mulberry32 generator's next(), so a failure names its case. */
export const seeded = (seed: number): Random => prng(seed).next;

const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const chance = (r: Random, p: number): boolean => r() < p;

const WORDS = ['name', 'type', 'description', 'input', 'properties', 'items', 'enum', 'a', 'b', 'x_y', 'get-it', 'Ünïcode', '日本'];
const NUMBERS = [
  '0', '1', '-1', '+1', '-0', '+0', '007', '08', '1_000', '0o17', '0O17', '0x1F', '0X1f', '0x', '0o8', '-0x1', '+0o7', '0b11',
  '1.5', '-1.5', '.5', '-.5', '+.5', '1.', '-0.0', '0.0', '1e3', '1E3', '1e+3', '1.5e-3', '0e0', '1e', 'e3', '1.5.5', '1:30',
  '.inf', '-.inf', '+.INF', '.Inf', '-.Inf', '.nan', '.NaN', '.NAN', '-.nan', 'inf', 'nan',
  '9007199254740993', '12345678901234567890123', '1e308', '2e308', '1e309', '-1e400', '1e-400', '4.9e-324', '1.7976931348623159e308',
  '9'.repeat(320), `0x${'f'.repeat(300)}`, `0x${'f'.repeat(256)}`, '9'.repeat(309),
];
const CONSTANTS = ['true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'null', 'Null', 'NULL', 'nULL', '~', '2001-12-14', '2001-12-14t21:59:43.10-05:00'];
const PLAINS = ['hello', 'hello world', 'a:b', 'http://x.y/z?q=1#f', 'a #not', 'a\\b', 'ends with colon:', '-dash', '?q', ':c', 'x*y', 'x&y', 'x!y', '50%', 'a, b', 'a]b', 'a}b', 'it\'s', 'say "hi"', '@at', '`tick', '%pct', '|bar', '>gt', '<<', '__proto__', '*star', '&amp', '!bang'];
const ESCAPES = ['\\n', '\\t', '\\\\', '\\"', '\\/', '\\ ', '\\0', '\\a', '\\b', '\\e', '\\f', '\\r', '\\v', '\\N', '\\_', '\\L', '\\P', '\\x41', '\\u00e9', '\\U0001F600', '\\U00110000', '\\ud83d\\ude00', '\\ud83d', '\\q', '\\x4'];
const TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq', '!!binary', '!!set', '!!timestamp', '!thing', '!<tag:yaml.org,2002:str>', '!'];

interface Ctx {
  readonly r: Random;
  readonly clean: boolean;
  anchors: string[];
  nl: string;
}

function scalar(c: Ctx, indent: number): string {
  const { r } = c;
  const roll = r();
  if (roll < 0.2) return pick(r, NUMBERS);
  if (roll < 0.3) return pick(r, CONSTANTS);
  if (roll < 0.5) return c.clean ? pick(r, WORDS) : pick(r, PLAINS);
  if (roll < 0.6) return `'${pick(r, [...PLAINS, ...NUMBERS, "it''s", '', ' lead', 'trail '])}'`;
  if (roll < 0.72) {
    const parts = Array.from({ length: 1 + Math.floor(r() * 3) }, () => (chance(r, 0.5) ? pick(r, ESCAPES) : pick(r, [...PLAINS, ...NUMBERS])));
    return `"${parts.join(c.clean ? '' : pick(r, ['', ' ', '\\\n' + ' '.repeat(indent + 1), `\\${c.nl}${c.nl}${' '.repeat(indent + 1)}`]))}"`;
  }
  if (roll < 0.8) {
    // A multi-line plain or quoted scalar: continuation lines indented more, sometimes an empty line between.
    const more = ' '.repeat(indent + 1 + Math.floor(r() * 3));
    const gap = chance(r, 0.3) ? `${c.clean ? '' : pick(r, ['', '', ' ', '\t', ' \t'])}${c.nl}` : '';
    const quote = pick(r, ['', '', '"', "'"]);
    return `${quote}${pick(r, WORDS)}${c.nl}${gap}${more}${c.clean ? pick(r, WORDS) : pick(r, [...WORDS, ...PLAINS])}${quote}`;
  }
  if (roll < 0.85 && !c.clean && c.anchors.length > 0) return `*${pick(r, c.anchors)}`;
  if (roll < 0.9 && !c.clean) return `${pick(r, TAGS)} ${pick(r, [...NUMBERS.slice(0, 40), ...CONSTANTS, ...WORDS, '""', "'1'"])}`;
  return pick(r, WORDS);
}

/** A block scalar's header and lines (the caller writes `key: ` or `- ` before it). */
function blockScalar(c: Ctx, indent: number): string {
  const { r } = c;
  const style = pick(r, ['|', '>']);
  const chomp = pick(r, ['', '', '-', '+']);
  const explicit = chance(r, 0.15) ? String(1 + Math.floor(r() * 2)) : '';
  const header = chance(r, 0.5) ? `${style}${explicit}${chomp}` : `${style}${chomp}${explicit}`;
  const base = indent + (explicit === '' ? 2 : Number(explicit));
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(r() * 4); i < n; i++) {
    if (chance(r, 0.15)) lines.push(chance(r, 0.5) ? '' : ' '.repeat(base));
    // A first line indented more than the next ones ends the scalar early: an error a clean text must not have.
    const extra = !c.clean && chance(r, 0.2) ? ' '.repeat(1 + Math.floor(r() * 2)) : '';
    const text = pick(r, [...WORDS, '* item', '- item', '# hash', '&x', '!y', 'a: b', c.clean ? 'deeper' : '  deeper', 'tab\there', '[!NOTE]', '"q"']);
    lines.push(' '.repeat(base) + extra + text);
  }
  if (chance(r, 0.3)) lines.push('');
  const comment = chance(r, 0.1) ? ' # c' : '';
  return `${header}${comment}${c.nl}${lines.join(c.nl)}`;
}

function flow(c: Ctx, depth: number): string {
  const { r } = c;
  const n = Math.floor(r() * 4);
  const item = (): string => (depth > 0 && chance(r, 0.3) ? flow(c, depth - 1) : pick(r, [...WORDS, ...NUMBERS.slice(0, 30), ...CONSTANTS.slice(0, 12), '"q, x"', "'s'"]));
  const sep = pick(r, [', ', ',', ' , ']);
  const trailing = chance(r, 0.1) ? ',' : '';
  if (chance(r, 0.5)) return `[${Array.from({ length: n }, item).join(sep)}${trailing}]`;
  const pair = (): string => {
    if (!c.clean && chance(r, 0.08)) return pick(r, ['bare', ': v', '? k', '~: v', 'null: v']);
    return `${pick(r, [...WORDS, '"k"', '1', 'true'])}: ${item()}`;
  };
  return `{${Array.from({ length: n }, pair).join(sep)}${trailing}}`;
}

function key(c: Ctx, used: Set<string>): string {
  const { r } = c;
  const roll = r();
  let k: string;
  if (c.clean) k = `${pick(r, WORDS)}${used.size}`;
  else if (roll < 0.6) k = `${pick(r, WORDS)}${chance(r, 0.5) ? used.size : ''}`;
  else if (roll < 0.68) k = pick(r, NUMBERS);
  else if (roll < 0.76) k = pick(r, CONSTANTS);
  else if (roll < 0.8) k = pick(r, ['""', "''", '"1"', "'true'", '"null"', '"~"', '"__proto__"']);
  else if (roll < 0.84) k = pick(r, ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'key with spaces', '日本語']);
  else if (roll < 0.86) k = 'k'.repeat(1000 + Math.floor(r() * 50));
  else if (roll < 0.88) k = pick(r, ['<<', '"<<"', '? a', '? [a]', '[a, b]', '{a: b}']);
  else if (roll < 0.9) k = `&k${Math.floor(r() * 3)} ${pick(r, WORDS)}`;
  else if (roll < 0.92) k = used.size > 0 ? pick(r, [...used]) : 'dup';
  else if (roll < 0.94) k = '';
  else k = pick(r, WORDS) + String(Math.floor(r() * 100));
  used.add(k);
  return k;
}

/** A value after `key:` or `- ` at `indent`: inline, or on the next lines indented under it. */
function value(c: Ctx, indent: number, depth: number): string {
  const { r } = c;
  const roll = r();
  const anchor = !c.clean && chance(r, 0.05) ? `&${(c.anchors[c.anchors.length] = `a${c.anchors.length}`)} ` : '';
  if (depth > 0 && roll < 0.25) return `${anchor.trimEnd()}${c.nl}${blockMap(c, indent + 2, depth - 1)}`;
  if (depth > 0 && roll < 0.4) return `${anchor.trimEnd()}${c.nl}${blockSeq(c, chance(r, 0.3) ? indent : indent + 2, depth - 1)}`;
  if (roll < 0.5) return anchor + blockScalar(c, indent);
  if (roll < 0.6) return anchor + flow(c, 2);
  if (roll < 0.63) return anchor.trimEnd();
  return anchor + scalar(c, indent);
}

function comment(c: Ctx, indent: number): string {
  return c.r() < 0.1 ? `${' '.repeat(Math.floor(c.r() * (indent + 2)))}# ${pick(c.r, WORDS)}${c.nl}` : '';
}

function blockMap(c: Ctx, indent: number, depth: number): string {
  const used = new Set<string>();
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(c.r() * 4); i < n; i++) {
    const sep = !c.clean && chance(c.r, 0.03) ? ':\t' : ': ';
    const v = value(c, indent, depth);
    const trailing = chance(c.r, 0.05) ? ' # trailing' : '';
    lines.push(`${comment(c, indent)}${pad}${key(c, used)}${v.startsWith(c.nl) || v === '' ? ':' : sep}${v}${v.includes(c.nl) ? '' : trailing}`);
  }
  return lines.join(c.nl);
}

function blockSeq(c: Ctx, indent: number, depth: number): string {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(c.r() * 4); i < n; i++) {
    const roll = c.r();
    if (depth > 0 && roll < 0.3) lines.push(`${pad}- ${blockMap(c, indent + 2, depth - 1).slice(indent + 2)}`);
    else if (depth > 0 && roll < 0.35) lines.push(`${pad}- ${blockSeq(c, indent + 2, depth - 1).slice(indent + 2)}`);
    else {
      const v = value(c, indent, depth);
      lines.push(`${comment(c, indent)}${pad}-${v.startsWith(c.nl) || v === '' ? '' : ' '}${v}`);
    }
  }
  return lines.join(c.nl);
}

const INSERTS = [' ', '  ', 'x', '\\', '- ', '\t', ':', '-', '#', '"', "'", '\n', '|', '>', '&', '*', '!', '[', '{', '}', ']', ',', '?', '%', '@', '`', '\r', '\ufeff', '---\n', '...\n', '<<: ', '\u2028', '\u0085'];

/** A random edit: the texts yaml refuses, and some that only one of the two refuses. */
function mutate(r: Random, text: string): string {
  const at = Math.floor(r() * (text.length + 1));
  const roll = r();
  if (roll < 0.5) return text.slice(0, at) + pick(r, INSERTS) + text.slice(at);
  if (roll < 0.8) return text.slice(0, at) + text.slice(at + 1);
  const lines = text.split('\n');
  const i = Math.floor(r() * lines.length);
  lines[i] = roll < 0.9 ? ` ${lines[i]}` : lines[i]!.replace(/^ /, '');
  return lines.join('\n');
}

/** One random document: usually a block mapping, with the document-level forms now and then. */
export function randomDocument(r: Random): string {
  const c: Ctx = { r, clean: chance(r, 0.35), anchors: [], nl: chance(r, 0.1) ? '\r\n' : '\n' };
  const roll = r();
  let body = roll < 0.75 ? blockMap(c, 0, 3) : roll < 0.88 ? blockSeq(c, 0, 3) : roll < 0.94 ? flow(c, 3) : roll < 0.97 ? scalar(c, 0) : pick(r, ['', '# only', '\n\n']);
  if (chance(r, 0.6)) body += c.nl;
  if (!c.clean) {
    if (chance(r, 0.04)) body = `---${pick(r, [' ', c.nl])}${body}`;
    if (chance(r, 0.02)) body = `%YAML 1.2${c.nl}---${c.nl}${body}`;
    if (chance(r, 0.03)) body = `${body}${c.nl}...${c.nl}`;
    if (chance(r, 0.02)) body = `${body}${c.nl}---${c.nl}b: 2${c.nl}`;
    if (chance(r, 0.03)) body = `\ufeff${chance(r, 0.3) ? '\ufeff' : ''}${body}`;
  }
  for (let m = chance(r, 0.3) ? 1 + Math.floor(r() * 3) : 0; m > 0; m--) body = mutate(r, body);
  return body;
}

/** A spec with a `tools:` list long enough to be read by pieces; `clean` leaves out what makes pieces fall back. */
export function randomSpec(r: Random, minChars: number, clean = false): string {
  const c: Ctx = { r, clean, anchors: [], nl: '\n' };
  let text = `mcpgen: 1${c.nl}server:${c.nl}  name: random${c.nl}  version: 1.0.0${c.nl}tools:${c.nl}`;
  // A clean spec's random parts are drawn again until yaml reads them without an error.
  const part = (): string => {
    for (;;) {
      const body = blockMap(c, 4, 2);
      if (!clean || isClean(body)) return body;
    }
  };
  for (let i = 0; text.length < minChars; i++) {
    const description = clean ? 'plain' : value(c, 4, 0);
    text += `  - name: tool_${i}${c.nl}    description: ${description}${c.nl}    input:${c.nl}${part()}${c.nl}`;
  }
  return `${text}$defs:${c.nl}  shared:${c.nl}${part()}${c.nl}`;
}

function isClean(text: string): boolean {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, resolveKnownTags: false });
  return doc.errors.length === 0 && doc.warnings.length === 0;
}
