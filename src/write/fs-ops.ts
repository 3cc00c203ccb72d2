// Every change the write stage makes on disk goes through these few functions, for two reasons:
// an errno becomes one clear EnvironmentError line (exit 1), never a stack trace; and the crash-safety
// tests can stop the real CLI at any single file event (see MCPGEN_TEST_FAULT below).
import { chmodSync, closeSync, copyFileSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { displayPath } from '../common/portable-path.js';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENOTDIR: 'a parent of it is not a directory',
  EISDIR: 'it is a directory',
  EEXIST: 'something else already exists there',
  ENOTEMPTY: 'it is a non-empty directory',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the path is too long',
  EBUSY: 'it is busy',
  EIO: 'input/output error',
  EXDEV: 'it is on another file system',
  ENOENT: 'it does not exist',
};

/** An fs error as one line (`cannot write generated/sql/types.ts: no space left on device (ENOSPC)`); anything else is rethrown as is (a bug). */
export function environmentError(action: string, path: string, e: unknown): Error {
  if (e instanceof EnvironmentError) return e;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return e instanceof Error ? e : new Error(String(e));
  return new EnvironmentError(`cannot ${action} ${shown(path)}: ${REASONS[code] ?? code} (${code})`);
}

/** A path for messages: relative to the working directory when inside it. */
export function shown(path: string): string {
  return displayPath(path, base);
}

// --- Fault injection (tests only) -------------------------------------------------------------------
// Inert unless MCPGEN_TEST_FAULT is set when a write stage starts (`beginWriteStage`):
//   kill@N    the process SIGKILLs itself just before its Nth file event: a crash at exactly that point
//   enospc@N  the Nth event fails with ENOSPC (a file write first writes half of its bytes)
//   eacces@N  the Nth event fails with EACCES
//   trace     every event is printed to stderr as `mcpgen-fault: N <op> <path>`
// It is compiled into the CLI so the tests crash the real program, not a copy of its writer.
let fault: { readonly mode: string; readonly at: number } | undefined;
let events = 0;
let base = process.cwd();

/** Start of a write stage: messages name paths relative to `cwd`; the fault counter starts again. */
export function beginWriteStage(cwd: string): void {
  base = cwd;
  events = 0;
  const spec = process.env.MCPGEN_TEST_FAULT;
  const m = spec === undefined ? null : /^(kill|enospc|eacces)@(\d+)$|^(trace)$/.exec(spec);
  fault = m === null ? undefined : m[3] !== undefined ? { mode: 'trace', at: 0 } : { mode: m[1]!, at: Number(m[2]) };
}

function fileEvent(op: string, path: string): 'partial' | undefined {
  if (fault === undefined) return undefined;
  events++;
  if (fault.mode === 'trace') {
    process.stderr.write(`mcpgen-fault: ${events} ${op} ${shown(path)}\n`);
    return undefined;
  }
  if (events !== fault.at) return undefined;
  if (fault.mode === 'kill') process.kill(process.pid, 'SIGKILL');
  if (fault.mode === 'enospc' && op === 'write') return 'partial';
  throw injected(fault.mode === 'enospc' ? 'ENOSPC' : 'EACCES', op, path);
}

function injected(code: string, op: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault, ${op} '${path}'`), { code, syscall: op, path });
}

// --- The operations ---------------------------------------------------------------------------------

/** Create (or replace) a file with `content` and flush it to the disk before returning. */
export function writeDurably(path: string, content: string): void {
  writeAllDurably([[path, content]]);
}

/**
 * Create (or replace) each file with its content, then flush them all to the disk before returning. All
 * written first, then flushed: the file system's first flush commits what the others wrote too, where a
 * flush after each write waited for a journal commit per file (15 files for each package).
 */
export function writeAllDurably(files: Iterable<readonly [path: string, content: string]>): void {
  const written: [fd: number, path: string][] = [];
  try {
    for (const [path, content] of files) {
      written.push([writeContent(path, content), path]);
      // A few descriptors open at a time (a skills folder may hold many files).
      if (written.length === OPEN_AT_ONCE) flushAndClose(written.splice(0));
    }
  } catch (e) {
    for (const [fd] of written) closeSync(fd);
    throw e;
  }
  flushAndClose(written);
}

const OPEN_AT_ONCE = 64;

function flushAndClose(written: readonly [fd: number, path: string][]): void {
  try {
    for (const [fd, path] of written) {
      try {
        fsyncSync(fd);
      } catch (e) {
        throw environmentError('write', path, e);
      }
    }
  } finally {
    for (const [fd] of written) closeSync(fd);
  }
}

/** The file written (not yet flushed), open: its descriptor. */
function writeContent(path: string, content: string): number {
  try {
    const partial = fileEvent('write', path);
    const bytes = Buffer.from(content, 'utf8');
    const fd = openSync(path, 'w');
    try {
      if (partial === 'partial') {
        writeSync(fd, bytes, 0, bytes.length >> 1);
        throw injected('ENOSPC', 'write', path);
      }
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    return fd;
  } catch (e) {
    throw environmentError('write', path, e);
  }
}

export function makeDir(path: string): void {
  try {
    fileEvent('mkdir', path);
    mkdirSync(path, { recursive: true });
  } catch (e) {
    throw environmentError('create directory', path, e);
  }
}

export function moveFile(from: string, to: string): void {
  try {
    fileEvent('rename', to);
    if (dirname(from) !== dirname(to)) mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  } catch (e) {
    throw environmentError('replace', to, e);
  }
}

/** Remove a file or a directory tree; a missing one is fine. */
export function removePath(path: string): void {
  try {
    fileEvent('remove', path);
    rmSync(path, { recursive: true, force: true });
  } catch (e) {
    throw environmentError('remove', path, e);
  }
}

/**
 * Give `to` (a new, empty folder) what `from` holds, except the relative paths `skip` names: files are
 * hard-linked (the same inode, so an edit through either name is the same edit; copied where links are
 * impossible), symlinks recreated, folders recreated with their mode. One file event for the whole tree.
 */
export function linkTree(from: string, to: string, skip: (rel: string) => boolean): void {
  fileEvent('link', to);
  const walk = (rel: string) => {
    const src = join(from, rel);
    let names: string[];
    try {
      names = readdirSync(src).sort();
    } catch (e) {
      throw environmentError('read directory', src, e);
    }
    for (const name of names) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (skip(child)) continue;
      const source = join(from, child);
      const target = join(to, child);
      try {
        const stat = lstatSync(source);
        if (stat.isDirectory()) {
          mkdirSync(target);
          chmodSync(target, stat.mode & 0o7777);
          walk(child);
          syncDir(target);
        } else if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
        else if (stat.isFile()) linkOrCopy(source, target);
        // sockets, fifos: not linked; finishing the switch moves them over from the old folder
      } catch (e) {
        throw environmentError('copy', source, e);
      }
    }
  };
  walk('');
  syncDir(to);
}

function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target); // a file system without hard links (or past its link limit)
    const fd = openSync(target, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** Flush a directory's entries (renames, removals) to the disk; not every platform can, which is fine. */
export function syncDir(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open directories; the renames still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
