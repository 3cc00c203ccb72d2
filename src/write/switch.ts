// Crash-safe replacement of one package folder as a whole. A reader of `<out>/<pkg>/` (a build, an
// editor, `tsc`) sees every file of the old generation or every file of the new one — never some of
// each, also after a SIGKILL or a power loss and before any later run has recovered:
//
//   1. stage    `<out>/.<pkg>.mcpgen-next/` is made complete beside the package folder: everything in
//               the current folder that this run does not replace or remove (the user's handlers.ts and
//               other files, unchanged generated files) hard-linked into it (copied where links are not
//               possible), the new and changed files written and fsynced, the journal written into it.
//   2. commit   the journal is renamed to `<out>/.<pkg>.mcpgen-switch.json`: the commit point. Before it
//               the run never happened (the next run deletes the staged folder); after it, it has.
//   3. switch   `<pkg>` is renamed to `.<pkg>.mcpgen-old`, then `.<pkg>.mcpgen-next` to `<pkg>`. Two
//               renames of whole folders: between them there is no `<pkg>` for an instant (and until the
//               next run after a kill exactly there), never a mix.
//   4. clean    a user file replaced or created in the old folder while the run went on (an editor's
//               atomic save lands on the old inode) is moved into the new folder; the old folder and the
//               journal are removed.
//
// Each step can be repeated, and which one a crash interrupted is read from what exists: a staged folder
// still there means the switch has not happened. Renames stay inside the output folder, so each is atomic.
import { accessSync, chmodSync, constants, existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { environmentError, linkTree, makeDir, moveFile, removePath, shown, syncDir, writeAllDurably } from './fs-ops.js';
import { ensureDir, isDir, journalNames, legacyLeftovers, readJournalDoc } from './transaction.js';

export interface PackageChange {
  /** Absolute package folder. */
  readonly dir: string;
  /** Name → new content. */
  readonly write: ReadonlyMap<string, string>;
  readonly remove: readonly string[];
  /** Remove the folder itself when it ends up empty (a package no spec produces any more). */
  readonly removeDirIfEmpty?: boolean;
}

interface SwitchJournal {
  readonly version: 2;
  /** Files of the new generation (relative to the package folder); the old folder's copies are not the user's. */
  readonly write: readonly string[];
  /** Files of the old generation this run removes. */
  readonly remove: readonly string[];
  /** The new folder is left out when it holds nothing (a retired package without user files). */
  readonly retire: boolean;
}

/** `.<pkg>.mcpgen-next`, `.<pkg>.mcpgen-old`, `.<pkg>.mcpgen-switch.json` beside a package folder. */
const MARK = /^\.(.+)\.mcpgen-(next|old|switch\.json)$/;
const STAGED_JOURNAL = '.mcpgen-switch.json';

function siblings(link: string) {
  const dir = realDir(link);
  const at = (suffix: string) => join(dirname(dir), `.${basename(dir)}.mcpgen-${suffix}`);
  return { dir, next: at('next'), old: at('old'), journal: at('switch.json') };
}

/**
 * The folder that is switched: a package folder that is a symbolic link is switched where it points
 * (also when the target is gone for an instant mid-switch), and the link stays a link.
 */
function realDir(dir: string): string {
  let at = dir;
  for (let hops = 0; hops < 8; hops++) {
    const stat = lstatOrNone(at);
    if (stat === undefined || !stat.isSymbolicLink()) return at;
    at = resolve(dirname(at), readlinkSync(at));
  }
  return at;
}

/**
 * lstat, or undefined where nothing can be: also when a parent is a file (ENOTDIR), which the write stage
 * then reports as one line ("cannot write into out: it is a file") rather than a crash here.
 */
function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** The package folder a name in an output folder marks as switching (`.weather.mcpgen-next` → `weather`). */
export function switchingPackage(name: string): string | undefined {
  return MARK.exec(name)?.[1];
}

/** Step 1. Throws EnvironmentError; the caller then calls `abandon`. */
export function stagePackage(change: PackageChange): void {
  const { dir, next } = siblings(change.dir);
  ensureDir(dirname(dir));
  // A package folder the user may not write stays as it is, as when files were replaced inside it.
  if (isDir(dir)) mayWrite(dir);
  if (existsSync(next)) removePath(next);
  makeDir(next);
  const replaced = new Set([...change.write.keys(), ...change.remove]);
  if (isDir(dir)) linkTree(dir, next, (rel) => replaced.has(rel));
  for (const name of change.write.keys()) if (name.includes('/')) makeDir(dirname(join(next, name)));
  const journal: SwitchJournal = { version: 2, write: [...change.write.keys()], remove: [...change.remove], retire: change.removeDirIfEmpty ?? false };
  // Every file and the journal on the disk before the commit point (the journal's rename).
  writeAllDurably([...[...change.write].map(([name, content]) => [join(next, name), content] as const), [join(next, STAGED_JOURNAL), `${JSON.stringify(journal, null, 2)}\n`]]);
  syncDir(next);
}

/** Roll back a package that was staged (or half staged) but not committed. */
export function abandon(change: PackageChange): void {
  removePath(siblings(change.dir).next);
}

/** Whether the package's change is past its commit point. */
export function committed(dir: string): boolean {
  return existsSync(siblings(dir).journal);
}

/** Steps 2 to 4. */
export function commitPackage(change: PackageChange): void {
  const { dir, next, journal } = siblings(change.dir);
  moveFile(join(next, STAGED_JOURNAL), journal);
  syncDir(dirname(dir));
  try {
    finishSwitch(change.dir, readJournal(journal));
  } catch (e) {
    if (e instanceof EnvironmentError) throw new EnvironmentError(`${e.message}; the change to ${shown(change.dir)} is committed and the next \`mcpgen generate\` finishes it`);
    throw e;
  }
}

/** Steps 3 and 4, from wherever a crash stopped them. */
function finishSwitch(link: string, journal: SwitchJournal): void {
  const { dir, next, old } = siblings(link);
  if (existsSync(next)) {
    if (existsSync(dir)) {
      if (existsSync(old)) throw new EnvironmentError(`cannot replace ${shown(dir)}: ${shown(old)} is in the way (not mcpgen's); move it away and run \`mcpgen generate\` again`);
      keepMode(dir, next);
      moveFile(dir, old);
    }
    if (journal.retire && readdirSync(next).length === 0) removePath(next);
    else putInPlace(next, old, dir);
    syncDir(dirname(dir));
  }
  if (existsSync(old)) {
    keepUserChanges(old, dir, new Set([...journal.write, ...journal.remove]));
    removePath(old);
  }
  removePath(siblings(link).journal);
  syncDir(dirname(dir));
}

/** The second rename; when it fails (not a crash), the old folder goes back so the package is not missing. */
function putInPlace(next: string, old: string, dir: string): void {
  try {
    moveFile(next, dir);
  } catch (e) {
    try {
      if (existsSync(old) && !existsSync(dir)) renameSync(old, dir);
    } catch {
      // the first error is the one to report; the next run finishes the switch either way
    }
    throw e;
  }
}

function mayWrite(dir: string): void {
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw environmentError('write into', dir, e);
  }
}

/** The new folder gets the old one's permissions, as when files were replaced inside it. */
function keepMode(from: string, to: string): void {
  try {
    chmodSync(to, statSync(from).mode & 0o7777);
  } catch {
    // best effort: Windows has no such modes
  }
}

/**
 * Files in the old folder that are not the old generation's and that the new folder does not have as
 * they are (same inode, or same bytes): the user changed or created them while the run went on. The
 * newer version moves into the new folder.
 */
function keepUserChanges(old: string, dir: string, generated: ReadonlySet<string>): void {
  const walk = (rel: string) => {
    for (const name of readdirSync(join(old, rel))) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (generated.has(child)) continue;
      const from = join(old, child);
      const to = join(dir, child);
      const a = lstatSync(from);
      const b = lstatSync(to, { throwIfNoEntry: false });
      if (a.isDirectory() && b?.isDirectory()) walk(child);
      else if (b === undefined || (!b.isDirectory() && !same(from, a, to, b) && a.mtimeMs > b.mtimeMs)) moveFile(from, to);
    }
  };
  try {
    walk('');
  } catch (e) {
    throw environmentError('read directory', old, e);
  }
}

function same(a: string, sa: Stats, b: string, sb: Stats): boolean {
  if (sa.ino === sb.ino && sa.dev === sb.dev) return true;
  if (sa.isSymbolicLink() && sb.isSymbolicLink()) return readlinkSync(a) === readlinkSync(b);
  return sa.isFile() && sb.isFile() && sa.size === sb.size && readFileSync(a).equals(readFileSync(b));
}

/** What a crashed run left for the package folder `dir`: beside it, and (older versions) inside it. */
export function leftovers(link: string): string[] {
  const { dir, next, old, journal } = siblings(link);
  return [...[next, old, journal].filter((p) => existsSync(p)), ...legacyLeftovers(dir)].sort();
}

/**
 * Finish (a journal: the run had committed) or undo (no journal) what a crashed switch left beside
 * `dir`. Returns true when there was something.
 */
export function recoverSwitch(link: string): boolean {
  const { dir, next, old, journal } = siblings(link);
  if (existsSync(journal)) {
    finishSwitch(link, readJournal(journal));
    return true;
  }
  if (!existsSync(next) && !existsSync(old)) return false;
  if (existsSync(next)) removePath(next);
  // An old folder without a journal is no crash of ours (it exists only after the commit, and the journal
  // is removed after it): put it back if the package folder is gone, else it is a stale copy.
  if (existsSync(old)) {
    if (existsSync(dir)) removePath(old);
    else moveFile(old, dir);
  }
  return true;
}

function readJournal(path: string): SwitchJournal {
  const doc = readJournalDoc(path);
  // The journal is only ever renamed into place whole, so a bad one was edited by hand: refuse to guess.
  if (doc === undefined || doc.version !== 2 || !journalNames(doc.write) || !journalNames(doc.remove) || typeof doc.retire !== 'boolean') {
    throw new EnvironmentError(`${shown(path)} is not a journal mcpgen can finish; remove it (and the .mcpgen-next folder beside it), then run \`mcpgen generate\` again`);
  }
  return doc as unknown as SwitchJournal;
}
