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
  // By file, kind and index: which override patched the entry there.
  const patched = new Map<string, Patched>();
  const at = (p: Patched): JsonPath => ['overrides', p.kind, p.key];
  // Each file's list of a kind, copied on its first patch (the parsed value is shared with the caches).
  const writable = (f: number, kind: OverridableKind): unknown[] => {
    const list = values[f]![kind] as unknown[];
    return list === (files[f]!.value as Record<string, unknown>)[kind] ? (values[f]![kind] = [...list]) : list;
  };
  for (const kind of Object.keys(KEYS) as OverridableKind[]) {
    for (const [key, patch] of Object.entries(overrides[kind] ?? {})) {
      const override: Patched = { kind, key, patch };
      let found = false;
      files.forEach((file, f) => {
        // Matched by the name as declared, never as an earlier override renamed it.
        const declared = (file.value as Record<string, unknown>)[kind];
        if (!Array.isArray(declared)) return;
        declared.forEach((entry: unknown, i) => {
          if ((entry as Record<string, unknown> | undefined)?.[KEYS[kind]] !== key) return;
          found = true;
          if (file === root) diagnostics.push(diagnosticAt(root, at(override), 'MCPG152', `${NOUNS[kind]} ${JSON.stringify(key)} is declared in this file: change it where it is declared (overrides are for files you do not edit)`, 'key'));
          writable(f, kind)[i] = patchedEntry(root, override, entry, diagnostics);
          patched.set(slot(file.file, kind, i), override);
        });
      });
      if (!found && !declaredIn(written, override)) diagnostics.push(noSuchEntry(root, override, written));
    }
  }
  for (const [name, patch] of Object.entries(overrides.$defs ?? {})) {
    const override: Patched = { kind: '$defs', key: name, patch };
    let found = false;
    files.forEach((file, f) => {
      const defs = (file.value as RawSpecFile).$defs;
      if (defs === undefined || !Object.hasOwn(defs, name)) return;
      found = true;
      if (file === root) diagnostics.push(diagnosticAt(root, at(override), 'MCPG152', `$defs entry ${JSON.stringify(name)} is declared in this file: change it where it is declared (overrides are for files you do not edit)`, 'key'));
      // Copied on the first patch; defined, not assigned (a `__proto__` name stays a name). Dropping a
      // schema others `$ref` leaves those refs to MCPG023, at the refs.
      const copy = (values[f]!.$defs === defs ? (values[f]!.$defs = { ...defs }) : values[f]!.$defs) as Record<string, unknown>;
      const result = mergePatch(defs[name], patch);
      if (result === null) delete copy[name];
      else Object.defineProperty(copy, name, { value: result, enumerable: true, writable: true, configurable: true });
      patched.set(slot(file.file, '$defs', name), override);
    });
    if (!found && !declaredIn(written, override)) diagnostics.push(noSuchEntry(root, override, written));
  }
  const [newRoot, ...newIncludes] = files.map((f, i) => withValue(f, values[i]));
  return { root: newRoot!, includes: newIncludes, diagnostics, repoint: (d) => repointed(d, root, patched, at) };
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

const declaredIn = (files: readonly SourceFile[], override: Patched): boolean => declaredKeys(files, override.kind).includes(override.key);

function noSuchEntry(root: SourceFile, override: Patched, files: readonly SourceFile[]): Diagnostic {
  const hint = didYouMean(override.key, declaredKeys(files, override.kind));
  const noun = NOUNS[override.kind];
  return diagnosticAt(root, ['overrides', override.kind, override.key], 'MCPG151', `overrides.${override.kind} names ${noun} ${JSON.stringify(override.key)}, which no file of this spec declares${hint !== undefined ? `; did you mean "${hint}"?` : ''}`, 'key');
}
