// Where an import writes, so that a re-import keeps the team's edits (issue 28): the import owns one
// include file (`specs/<name>/openapi.yaml`), rewritten by every run, and creates the team's root spec
// (`specs/<name>.yaml`: the server block, `include:` of the owned file, an empty `overrides:`) once,
// never rewriting it. The team changes imported tools in its root through `overrides:` (merge patches).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { isGlob } from '../../load/glob.js';
import { ROOT_ONLY } from '../../validate/spec-format.js';
import { UsageError } from '../../errors.js';
import { specToYaml } from './yaml-spec.js';

/** Keys that stay out of the owned file: the format version and what only a root spec may hold. */
const ROOT_KEYS: ReadonlySet<string> = new Set(['mcpgen', ...ROOT_ONLY]);

export interface ImportFiles {
  /** Path → text, for writeFilesAtomically. */
  readonly files: Map<string, string>;
  readonly ownedPath: string;
  /** The value the owned file's text was written from (what reading it back gives): parse/known-values.ts. */
  readonly ownedValue: Readonly<Record<string, unknown>>;
  /** True when this run writes the root spec (it did not exist, or was a whole spec an older import wrote). */
  readonly rootWritten: boolean;
  /** Said on stderr: the root does not include the owned file, so its tools would not be served. */
  readonly warnings: readonly string[];
}

export interface ImportFilesOptions {
  /** The command that writes, e.g. `mcpgen import openapi`: its banner marks the files it owns. */
  readonly command: string;
  /** Where the description came from, as the user gave it. */
  readonly from: string;
  /** The team's root spec (absolute). */
  readonly rootPath: string;
  readonly force: boolean;
  readonly cwd: string;
  /** The owned file's name: `specs/pets.yaml` → `specs/pets/<kind>.yaml`. */
  readonly kind: string;
}

/** First line of a file an import owns: a re-import rewrites it only while this is still there. */
export const ownedMark = (command: string): string => `# Written by \`${command}\``;

/**
 * The owned file, in a folder named after the root: `specs/pets.yaml` → `specs/pets/openapi.yaml`. Not
 * beside it: the usual config glob `specs/*.yaml` would take an include for a spec of its own.
 */
export function ownedPathOf(rootPath: string, kind: string): string {
  const stem = basename(rootPath).replace(/\.ya?ml$/i, '');
  return join(dirname(rootPath), stem, `${kind}.yaml`);
}

export function importFiles(spec: Readonly<Record<string, unknown>>, options: ImportFilesOptions): ImportFiles {
  const { command, rootPath, cwd } = options;
  const ownedPath = ownedPathOf(rootPath, options.kind);
  const mark = ownedMark(command);
  const show = (p: string) => relative(cwd, p).replaceAll('\\', '/');
  if (!options.force && existsSync(ownedPath) && !firstLine(ownedPath).startsWith(mark)) {
    throw new UsageError(`${show(ownedPath)} exists and is not the import's (its first line is not "${mark}"); move your changes into ${show(rootPath)} under \`overrides:\`, or pass --force to replace it`);
  }
  const include = relative(dirname(rootPath), ownedPath).replaceAll('\\', '/');
  const owned = Object.fromEntries(Object.entries(spec).filter(([key]) => !ROOT_KEYS.has(key)));
  const files = new Map<string, string>();
  files.set(ownedPath, specToYaml(owned, [
    `${mark.slice(2)} from ${JSON.stringify(options.from)}; a re-import rewrites this file.`,
    `Change its tools in ${relative(dirname(ownedPath), rootPath).replaceAll('\\', '/')} under \`overrides:\` (kept by a re-import), not here.`,
  ]));
  // A root that an older import wrote whole (the same first line) is the import's to replace.
  const rootWritten = !existsSync(rootPath) || firstLine(rootPath).startsWith(mark);
  if (rootWritten) files.set(rootPath, rootSpec(spec, include, command));
  const warnings = rootWritten || includes(rootPath, include) ? [] : [`${show(rootPath)} does not include ${include}: add it under \`include:\` to serve the imported tools`];
  return { files, ownedPath, ownedValue: owned, rootWritten, warnings };
}

function rootSpec(spec: Readonly<Record<string, unknown>>, include: string, command: string): string {
  const rootPart = Object.fromEntries(Object.entries(spec).filter(([key]) => ROOT_KEYS.has(key) && key !== 'include' && key !== 'overrides'));
  const head = specToYaml({ ...rootPart, include: [include] }, [
    `This spec is yours: \`${command}\` created it and never rewrites it. A re-import rewrites`,
    `${include}, the tools it includes.`,
  ]);
  return [
    head.trimEnd(),
    '# Changes to the imported tools, by tool name, as merge patches (docs/spec-format.md#overrides):',
    '#   listPets: { description: Lists pets, newest first. }   replaces a key',
    '#   deletePet: null                                        leaves a tool out',
    '#   getPetById: { name: pet_get }                          renames it (and its handler method)',
    '# Shared schemas are changed the same way, by name, under `$defs:` beside `tools:`.',
    'overrides:',
    '  tools: {}',
    '',
  ].join('\n');
}

function firstLine(path: string): string {
  return readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
}

/** Whether the root's `include:` names the owned file (a glob counts as naming it: the check says if it does not). */
function includes(rootPath: string, include: string): boolean {
  let list: unknown;
  try {
    list = (parse(readFileSync(rootPath, 'utf8')) as { include?: unknown } | null)?.include;
  } catch {
    return true; // the check after the import reports the broken root
  }
  const plain = (p: string) => p.replace(/^\.\//, '');
  return Array.isArray(list) && list.some((p) => typeof p === 'string' && (isGlob(p) || plain(p) === plain(include)));
}
