// `overrides:` — the root spec changes entries declared in other files (an import's file, rewritten by
// each re-import) without editing them. Each override is an RFC 7396 merge patch of the entry as written,
// applied here, before any rule runs: the rules, the model and the emitters see only the patched entries.
// A diagnostic about what a patch wrote is moved to the override that wrote it.
import { didYouMean } from '../common/suggest.js';
import { formatPath, parsePath, type Diagnostic } from '../diagnostics/diagnostic.js';
import { mergePatch } from '../common/merge-patch.js';
import { diagnosticAt, locate, withValue, type JsonPath, type SourceFile } from '../parse/source.js';
import { validateSpecFormat } from './spec-format.js';
import type { OverridableKind, RawSpecFile } from './spec-types.js';

/** What names an entry of each kind (the key of its override). */
const KEYS: Readonly<Record<OverridableKind, string>> = { tools: 'name', resources: 'uri', resourceTemplates: 'uriTemplate', prompts: 'name' };
const NOUNS: Readonly<Record<OverridableKind | '$defs', string>> = { tools: 'tool', resources: 'resource', resourceTemplates: 'resource template', prompts: 'prompt', $defs: '$defs entry' };

interface Patched {
  /** A list of entries, or `$defs` (a mapping, by name). */
  readonly kind: OverridableKind | '$defs';
  readonly key: string;
  readonly patch: unknown;
}

export interface Overridden {
  readonly root: SourceFile;
  readonly includes: readonly SourceFile[];
  readonly diagnostics: Diagnostic[];
  /** A later rule's diagnostic, moved to the override when it is about a value the override wrote. */
  readonly repoint: (d: Diagnostic) => Diagnostic;
}

/**
 * `root` and `includes` as validation sanitized them (entries with format errors are holes, left
 * unpatched); `written`: the files as read, so an override of an entry with format errors is not also
 * said to name nothing.
 */
export function applyOverrides(root: SourceFile, includes: readonly SourceFile[], written: readonly SourceFile[]): Overridden {
  const overrides = (root.value as RawSpecFile).overrides;
  if (overrides === undefined) return { root, includes, diagnostics: [], repoint: (d) => d };
  const files = [root, ...includes];
  const values = files.map((f) => ({ ...(f.value as Record<string, unknown>) }));
  const diagnostics: Diagnostic[] = [];
  // By file, kind and index (name): which override patched the entry there.
  const patched = new Map<string, Patched>();
  const at = (p: Patched): JsonPath => ['overrides', p.kind, p.key];
  const all = ([...Object.keys(KEYS), '$defs'] as Patched['kind'][]).flatMap((kind) => Object.entries(overrides[kind] ?? {}).map(([key, patch]): Patched => ({ kind, key, patch })));
  for (const override of all) {
    const places = placesOf(files, override);
    if (places.length === 0 && placesOf(written, override).length === 0) diagnostics.push(noSuchEntry(root, override, written));
    for (const { f, where, entry } of places) {
      if (f === 0) diagnostics.push(diagnosticAt(root, at(override), 'MCPG152', `${NOUNS[override.kind]} ${JSON.stringify(override.key)} is declared in this file: change it where it is declared (overrides are for files you do not edit)`, 'key'));
      // A schema in $defs needs no format check of its own: the JSON Schema rules check it, and say it here.
      const result = override.kind === '$defs' ? mergePatch(entry, override.patch) : patchedEntry(root, override, entry, diagnostics);
      put(values[f]!, files[f]!.value as Record<string, unknown>, override.kind, where, result);
      patched.set(slot(files[f]!.file, override.kind, where), override);
    }
  }
  const [newRoot, ...newIncludes] = files.map((f, i) => withValue(f, values[i]));
  return { root: newRoot!, includes: newIncludes, diagnostics, repoint: (d) => repointed(d, root, patched, at) };
}

interface Place {
  /** Index of the file. */
  readonly f: number;
  /** Index in the kind's list, or name in `$defs`. */
  readonly where: number | string;
  readonly entry: unknown;
}

/** Where the entry an override names is declared: matched by the name as written, never as an override renamed it. */
function placesOf(files: readonly SourceFile[], override: Patched): Place[] {
  return files.flatMap((file, f): Place[] => {
    const held = (file.value as Record<string, unknown> | null | undefined)?.[override.kind];
    if (override.kind === '$defs') {
      return typeof held === 'object' && held !== null && Object.hasOwn(held, override.key) ? [{ f, where: override.key, entry: (held as Record<string, unknown>)[override.key] }] : [];
    }
    if (!Array.isArray(held)) return [];
    return held.flatMap((entry: unknown, i) => ((entry as Record<string, unknown> | undefined)?.[KEYS[override.kind as OverridableKind]] === override.key ? [{ f, where: i, entry }] : []));
  });
}

/**
 * Puts the patched entry in the file's value: the list (or $defs) is copied on its first patch, as the
 * parsed value is shared with the caches. undefined leaves a hole in a list (dropped, or a format error:
 * the rules skip it); null and undefined remove a $defs name. Defined, not assigned: `__proto__` stays a name.
 */
function put(value: Record<string, unknown>, original: Record<string, unknown>, kind: string, where: number | string, result: unknown): void {
  const held = original[kind];
  if (value[kind] === held) value[kind] = Array.isArray(held) ? [...held] : { ...(held as object) };
  const container = value[kind] as Record<string | number, unknown>;
  if (Array.isArray(container)) container[where as number] = result;
  else if (result === null || result === undefined) delete container[where];
  else Object.defineProperty(container, where, { value: result, enumerable: true, writable: true, configurable: true });
}

/** An entry's place: its file, its list (or `$defs`) and its index (or name). */
const slot = (file: string, kind: string, at: number | string): string => `${file}\0${kind}\0${at}`;

/** The entry patched, undefined when dropped (a hole, as for an entry with format errors), or when the patch broke its format. */
function patchedEntry(root: SourceFile, override: Patched, entry: unknown, out: Diagnostic[]): unknown {
  const result = mergePatch(entry, override.patch);
  if (result === null) return undefined;
  // The patched entry alone, checked against the spec format: anything wrong is the override's doing
  // (the entry as written passed, or it would be a hole and never patched).
  const format = validateSpecFormat(withValue(root, { [override.kind]: [result] }), 'include');
  const written = formatPath([override.kind, 0]);
  const here = formatPath(['overrides', override.kind, override.key]);
  for (const d of format.diagnostics) {
    const sub = (parsePath(d.path) ?? []).slice(2);
    const prefix = patchPrefix(override.patch, sub) ?? [];
    const message = d.message.replaceAll(`"${written}`, `"${here}`);
    out.push(diagnosticAt(root, ['overrides', override.kind, override.key, ...prefix], d.code, message, d.code === 'MCPG003' && prefix.length === sub.length ? 'key' : 'value'));
  }
  return format.broken.size > 0 ? undefined : result;
}

/**
 * How far `sub` (a path inside the patched entry) runs through what the patch itself wrote: all of it, or
 * up to a value the patch replaced whole (a list, a string). Undefined: the path leaves the patch, so what
 * it names came from the entry as written.
 */
function patchPrefix(patch: unknown, sub: JsonPath): JsonPath | undefined {
  let node = patch;
  const prefix: (string | number)[] = [];
  for (const seg of sub) {
    if (typeof node !== 'object' || node === null) return prefix;
    if (!Object.hasOwn(node, seg)) return undefined;
    node = (node as Record<string | number, unknown>)[seg];
    prefix.push(seg);
  }
  return prefix;
}

function repointed(d: Diagnostic, root: SourceFile, patched: ReadonlyMap<string, Patched>, at: (p: Patched) => JsonPath): Diagnostic {
  const path = parsePath(d.path);
  if (path === undefined || typeof path[0] !== 'string' || path[1] === undefined) return d;
  const override = patched.get(slot(d.file, path[0], path[1]));
  if (override === undefined) return d;
  const sub = path.slice(2);
  const prefix = sub.length === 0 ? undefined : patchPrefix(override.patch, sub);
  if (prefix !== undefined) return { ...diagnosticAt(root, [...at(override), ...prefix], d.code, d.message), severity: d.severity };
  // About a part the override did not write; the patch may still be why (a rename, a changed type).
  const { line, column } = locate(root, at(override), 'key');
  return { ...d, message: `${d.message} (the ${NOUNS[override.kind]} as changed by ${formatPath(at(override))} at ${root.file}:${line}:${column})` };
}

/** The names (URIs) of every entry of the override's kind, in every file. */
function declaredKeys(files: readonly SourceFile[], kind: OverridableKind | '$defs'): string[] {
  if (kind === '$defs') return files.flatMap((f) => Object.keys((f.value as RawSpecFile | null | undefined)?.$defs ?? {}));
  const entries = files.flatMap((f) => {
    const list = (f.value as Record<string, unknown> | null | undefined)?.[kind];
    return Array.isArray(list) ? list : [];
  });
  return entries.map((e) => (e as Record<string, unknown> | null | undefined)?.[KEYS[kind]]).filter((k): k is string => typeof k === 'string');
}

function noSuchEntry(root: SourceFile, override: Patched, files: readonly SourceFile[]): Diagnostic {
  const hint = didYouMean(override.key, declaredKeys(files, override.kind));
  const noun = NOUNS[override.kind];
  return diagnosticAt(root, ['overrides', override.kind, override.key], 'MCPG151', `overrides.${override.kind} names ${noun} ${JSON.stringify(override.key)}, which no file of this spec declares${hint !== undefined ? `; did you mean "${hint}"?` : ''}`, 'key');
}
