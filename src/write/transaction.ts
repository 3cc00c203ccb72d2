// Recovery of what an older mcpgen left inside a package folder when it crashed: it replaced a package's
// files one by one through a write-ahead journal (`<pkg>/.mcpgen-journal.json`, files staged in
// `<pkg>/.mcpgen-staging/`, and before that `<file>.<pid>.mcpgen-tmp` temp files). New runs switch whole
// folders instead (switch.ts); this only finishes or undoes an old run's leftovers after an upgrade:
// a journal → its moves and removals are finished (the run had committed), no journal → the staging
// folder is deleted (it had not), temp files are deleted.
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { environmentError, makeDir, moveFile, removePath, shown, syncDir } from './fs-ops.js';

export const STAGING_DIR = '.mcpgen-staging';
export const JOURNAL_FILE = '.mcpgen-journal.json';
/** Temp files of older mcpgen versions (`<file>.<pid>.mcpgen-tmp`); removed on sight. */
const OLD_TEMP = /\.mcpgen-tmp$/;

export interface Journal {
  readonly version: 1;
  /** Names (relative to the package folder) staged in STAGING_DIR, moved into place in this order. */
  readonly write: readonly string[];
  /** Names removed from the package folder. */
  readonly remove: readonly string[];
}

function applyJournal(dir: string, journal: Journal, removeDirIfEmpty: boolean): void {
  const staging = join(dir, STAGING_DIR);
  for (const name of journal.write) {
    const from = join(staging, name);
    if (existsSync(from)) moveFile(from, join(dir, name));
  }
  for (const name of journal.remove) if (existsSync(join(dir, name))) removePath(join(dir, name));
  syncDir(dir);
  removePath(join(dir, JOURNAL_FILE));
  removePath(staging);
  if (removeDirIfEmpty) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty: the user's files (handlers.ts, …) stay, and so does their folder
    }
  }
}

/** What a crashed older run left in `dir`: the journal, the staging folder, temp files. */
export function legacyLeftovers(dir: string): string[] {
  if (!isDir(dir)) return [];
  const found: string[] = [];
  for (const name of safeReaddir(dir)) {
    if (name === JOURNAL_FILE || name === STAGING_DIR || OLD_TEMP.test(name)) found.push(join(dir, name));
  }
  return found.sort();
}

/**
 * Finish or undo whatever a crashed run left in `dir` (see the top of this file). Returns true when
 * something was recovered.
 */
export function recoverPackage(dir: string): boolean {
  const found = legacyLeftovers(dir);
  if (found.length === 0) return false;
  const journalPath = join(dir, JOURNAL_FILE);
  if (existsSync(journalPath)) {
    const journal = readJournal(journalPath);
    // A journal that writes nothing retired a whole package: its folder goes too if nothing else is left.
    applyJournal(dir, journal, journal.write.length === 0);
  } else {
    removePath(join(dir, STAGING_DIR));
  }
  if (isDir(dir)) for (const name of safeReaddir(dir)) if (OLD_TEMP.test(name)) removePath(join(dir, name));
  return true;
}

function readJournal(path: string): Journal {
  const doc = readJournalDoc(path);
  // The journal is only ever renamed into place whole, so a bad one was edited by hand: refuse to guess.
  if (doc === undefined || doc.version !== 1 || !journalNames(doc.write) || !journalNames(doc.remove)) {
    throw new EnvironmentError(`${shown(path)} is not a journal mcpgen can finish; remove it and ${STAGING_DIR}/ next to it, then run \`mcpgen generate\` again`);
  }
  return doc as unknown as Journal;
}

/** A journal's JSON object, undefined when it is not one; an unreadable file is an environment error. */
export function readJournalDoc(path: string): Record<string, unknown> | undefined {
  try {
    const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== undefined) throw environmentError('read', path, e);
    return undefined;
  }
}

/** Names a journal may hold: paths inside the package folder. */
export function journalNames(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((n) => typeof n === 'string' && n !== '' && !n.split('/').includes('..'));
}

/** The package folder must be a folder: a file in its place is an environment error, not a bug. */
export function ensureDir(dir: string): void {
  if (isDir(dir)) return;
  if (existsSync(dir)) throw new EnvironmentError(`cannot write into ${shown(dir)}: it exists and is not a directory`);
  makeDir(dir);
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw environmentError('read directory', dir, e);
  }
}
