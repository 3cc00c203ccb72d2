// Crash-safe replacement of one package folder's files: a small write-ahead journal.
//
//   1. stage     every new or changed file (and the new manifest) is written and fsynced into
//                `<pkg>/.mcpgen-staging/`; nothing the package's readers see has changed yet.
//   2. commit    the journal (which staged names to move in, which files to remove) is written into the
//                staging folder, fsynced, then renamed to `<pkg>/.mcpgen-journal.json`. That one rename is
//                the commit point: before it the run never happened, after it the run has happened.
//   3. apply     staged files are renamed over their targets, stale files removed, then the journal and
//                the staging folder are deleted.
//
// A crash (kill, power loss) before the commit point leaves a staging folder and no journal: the next
// run (`recoverPackage`) deletes it — roll back, the package is still all old. A crash after it leaves
// the journal: the next run finishes the renames and removals — roll forward, the package becomes all
// new. Every step of apply can be repeated (a staged file already moved is simply no longer there), so a
// crash during recovery is recovered the same way. `generate --check` reports any leftover instead of
// calling the output current. Renames never cross folders, so each is atomic on its own.
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { environmentError, makeDir, moveFile, removePath, shown, syncDir, writeDurably } from './fs-ops.js';

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

export interface PackageChange {
  /** Absolute package folder. */
  readonly dir: string;
  /** Name → new content. */
  readonly write: ReadonlyMap<string, string>;
  readonly remove: readonly string[];
  /** Remove the folder itself when it ends up empty (a package no spec produces any more). */
  readonly removeDirIfEmpty?: boolean;
}

/** Step 1. Throws EnvironmentError; the caller then calls `abandon`. */
export function stagePackage(change: PackageChange): void {
  ensureDir(change.dir);
  const staging = join(change.dir, STAGING_DIR);
  if (existsSync(staging)) removePath(staging);
  makeDir(staging);
  for (const [name, content] of change.write) {
    const path = join(staging, name);
    if (name.includes('/')) makeDir(join(path, '..'));
    writeDurably(path, content);
  }
  syncDir(staging);
}

/** Roll back a package that was staged (or half staged) but not committed. */
export function abandon(change: PackageChange): void {
  removePath(join(change.dir, STAGING_DIR));
}

/** Steps 2 and 3. */
export function commitPackage(change: PackageChange): void {
  const journal: Journal = { version: 1, write: [...change.write.keys()], remove: [...change.remove] };
  const staged = join(change.dir, STAGING_DIR, JOURNAL_FILE);
  writeDurably(staged, `${JSON.stringify(journal, null, 2)}\n`);
  moveFile(staged, join(change.dir, JOURNAL_FILE));
  syncDir(change.dir);
  try {
    applyJournal(change.dir, journal, change.removeDirIfEmpty ?? false);
  } catch (e) {
    if (e instanceof EnvironmentError) throw new EnvironmentError(`${e.message}; the change to ${shown(change.dir)} is committed and the next \`mcpgen generate\` finishes it`);
    throw e;
  }
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

/** What a crashed run left in `dir`: the journal, the staging folder, old-style temp files. */
export function leftovers(dir: string): string[] {
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
  const found = leftovers(dir);
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
  let doc: Partial<Journal> | undefined;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8')) as Partial<Journal>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== undefined) throw environmentError('read', path, e);
  }
  const names = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'string' && n !== '' && !n.split('/').includes('..'));
  // The journal is only ever renamed into place whole, so a bad one was edited by hand: refuse to guess.
  if (doc === undefined || doc.version !== 1 || !names(doc.write) || !names(doc.remove)) {
    throw new EnvironmentError(`${shown(path)} is not a journal mcpgen can finish; remove it and ${STAGING_DIR}/ next to it, then run \`mcpgen generate\` again`);
  }
  return doc as Journal;
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
