import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver';
import { KNOWN_FORMATS } from '../validate/rules/known-formats.js';
import type { JsonPath } from '../parse/source.js';
import { keysAt, placeAt, SIMPLE_TYPES, valuesAt } from './schema-docs.js';
import type { SpecIndex } from './spec-index.js';

const MARK = '__mcpgen_completion__';

/** Names of the spec that values may refer to. */
export interface Names {
  readonly index: SpecIndex | undefined;
  readonly root: unknown;
}

/**
 * Completion at a cursor in a spec being typed (often not valid YAML yet): the word before the cursor is
 * replaced by a marker, the text parsed, and the marker's place says what goes there — a key of that
 * mapping (spec keys, annotation hints, JSON Schema keywords) or a value (`$defs` names in `$ref`, formats,
 * types, toolset, scope, tool and app names, the format's enums).
 */
export function complete(text: string, offset: number, names: Names): { items: CompletionItem[]; from: number } {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const partial = /[^\s:'"{},[\]]*$/.exec(before)![0];
  const prefix = before.slice(0, before.length - partial.length);
  const from = offset - partial.length;
  const keyish = /^\s*$/.test(prefix) || /[{,]\s*$/.test(prefix);
  const marked = text.slice(0, from) + (keyish ? `${MARK}: 0` : MARK) + text.slice(offset).replace(/^[^\s:'"{},[\]]*/, '');
  const found = findMark(parseDocument(marked).contents, []);
  if (found === undefined) return { items: [], from };
  if (found.key) return { items: keyItems(found.path, found.siblings), from };
  const place = placeAt(found.path);
  // `- |` in a list of mappings: the keys of a new entry.
  if (typeof found.path[found.path.length - 1] === 'number' && place.kind !== 'other' && (place.kind === 'json-schema' || keysAt(found.path).length > 0)) return { items: keyItems(found.path, []), from };
  return { items: valueItems(found.path, names), from };
}

function findMark(node: unknown, path: (string | number)[]): { path: JsonPath; key: boolean; siblings: string[] } | undefined {
  if (isMap(node)) {
    const keys = node.items.flatMap((p) => (isPair(p) && isScalar(p.key) ? [String(p.key.value)] : []));
    for (const p of node.items) {
      const k = isScalar(p.key) ? String(p.key.value) : undefined;
      if (k === MARK) return { path, key: true, siblings: keys.filter((x) => x !== MARK) };
      if (k === undefined) continue;
      if (isScalar(p.value) && p.value.value === MARK) return { path: [...path, k], key: false, siblings: [] };
      const deeper = findMark(p.value, [...path, k]);
      if (deeper !== undefined) return deeper;
    }
  } else if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i];
      if (isScalar(item) && item.value === MARK) return { path: [...path, i], key: false, siblings: [] };
      const deeper = findMark(item, [...path, i]);
      if (deeper !== undefined) return deeper;
    }
  }
  return undefined;
}

function keyItems(path: JsonPath, present: readonly string[]): CompletionItem[] {
  return keysAt(path)
    .filter((k) => !present.includes(k.key))
    .map((k) => ({ label: k.key, kind: CompletionItemKind.Property, insertText: `${k.key}: `, ...(k.description !== undefined ? { documentation: k.description } : {}) }));
}

function valueItems(path: JsonPath, names: Names): CompletionItem[] {
  const key = path[path.length - 1];
  const parentKey = typeof key === 'number' ? path[path.length - 2] : key;
  const inSchema = placeAt(path.slice(0, -1)).kind === 'json-schema';
  const root = (names.root ?? {}) as { toolsets?: unknown; auth?: { scopes?: unknown }; apps?: unknown };
  const keysOf = (v: unknown): string[] => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []);
  let values: { label: string; kind: CompletionItemKind }[] = [];
  if (key === '$ref') values = [...(names.index?.defs.keys() ?? [])].map((n) => ({ label: `#/$defs/${n}`, kind: CompletionItemKind.Reference }));
  else if (key === 'format' && inSchema) values = [...KNOWN_FORMATS].map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
  else if (key === 'type' && inSchema) values = SIMPLE_TYPES.map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
  else if (parentKey === 'tools' && path[0] === 'toolsets') values = [...(names.index?.tools.keys() ?? [])].map((label) => ({ label, kind: CompletionItemKind.Function }));
  else if (path[0] === 'discovery' && parentKey === 'initial') values = keysOf(root.toolsets).map((label) => ({ label, kind: CompletionItemKind.Module }));
  else if (parentKey === 'scopes' || parentKey === 'requiredScopes') values = keysOf(root.auth?.scopes).map((label) => ({ label, kind: CompletionItemKind.Constant }));
  else if (key === 'ui' || (key === 'resource' && path[path.length - 2] === 'ui')) {
    values = (Array.isArray(root.apps) ? root.apps : []).flatMap((a: { uri?: unknown }) => (typeof a?.uri === 'string' ? [{ label: a.uri, kind: CompletionItemKind.Module }] : []));
  } else values = valuesAt(path).map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
  return values.map((v) => ({ label: v.label, kind: v.kind }));
}
