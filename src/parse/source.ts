import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { defaultSeverity, formatPath, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';

export type PathSegment = string | number;
export type JsonPath = readonly PathSegment[];

/** A parsed spec file: its text, its YAML document with source ranges, and the plain JS value. */
export interface SourceFile {
  readonly file: string;
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  /** `undefined` when the document could not be turned into data (syntax errors, alias bomb). */
  readonly value: unknown;
}

/** Above this many alias expansions a document is refused instead of expanded (billion laughs). */
export const MAX_ALIAS_COUNT = 1000;

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
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const base = { file, text, doc, lines };
  for (const err of doc.errors) {
    const pos = lines.linePos(err.pos[0]);
    const code: DiagnosticCode = err.code === 'DUPLICATE_KEY' ? 'MCPG002' : 'MCPG001';
    const message = err.code === 'DUPLICATE_KEY' ? 'duplicate key: each key may appear once in a mapping' : firstLine(err.message);
    diagnostics.push({ code, severity: 'error', message, file, line: pos.line, column: pos.col, path: '$' });
  }
  if (diagnostics.length > 0) return { source: { ...base, value: undefined }, diagnostics };
  try {
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return { source: { ...base, value }, diagnostics };
  } catch (e) {
    const excessive = e instanceof ReferenceError && /alias/i.test(e.message);
    diagnostics.push({
      code: excessive ? 'MCPG007' : 'MCPG001',
      severity: 'error',
      message: excessive
        ? `refusing to expand YAML aliases: more than ${MAX_ALIAS_COUNT} alias expansions`
        : `cannot read the YAML document: ${firstLine(e instanceof Error ? e.message : String(e))}`,
      file,
      line: 1,
      column: 1,
      path: '$',
    });
    return { source: { ...base, value: undefined }, diagnostics };
  }
}

/** Where a JSON path points in the file: the value node, or with `key` the mapping key that names it. */
export function locate(source: SourceFile, path: JsonPath, target: 'value' | 'key' = 'value'): { line: number; column: number } {
  let node: unknown = source.doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && scalarKey(p.key) === String(seg));
      if (pair === undefined) break;
      const keyStart = rangeStart(pair.key);
      if (last && target === 'key' && keyStart !== undefined) return pos(source, keyStart);
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
  return pos(source, offset);
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
