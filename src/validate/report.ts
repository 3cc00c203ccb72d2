import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnosticAt, locate, type JsonPath } from '../parse/source.js';
import type { Located } from './view.js';

/** Diagnostic at a located item, optionally deeper inside it. */
export function report(
  item: Located<unknown>,
  code: DiagnosticCode,
  message: string,
  segments: JsonPath = [],
  target: 'value' | 'key' = 'value',
): Diagnostic {
  return diagnosticAt(item.source, [...item.path, ...segments], code, message, target);
}

/** `file:line:col` of an item, for "first declared at …" hints. */
export function where(item: Located<unknown>, segments: JsonPath = []): string {
  const { line, column } = locate(item.source, [...item.path, ...segments]);
  return `${item.source.file}:${line}:${column}`;
}

/** Report every item whose key was already seen; the message names the first one. */
export function duplicates<T>(
  items: readonly Located<T>[],
  keyOf: (v: T) => string | undefined,
  describe: (key: string, first: Located<T>) => string,
  code: DiagnosticCode,
  segment: JsonPath,
): Diagnostic[] {
  const first = new Map<string, Located<T>>();
  const out: Diagnostic[] = [];
  for (const item of items) {
    const key = keyOf(item.value);
    if (key === undefined) continue;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, item);
    else out.push(report(item, code, describe(key, seen), segment));
  }
  return out;
}
