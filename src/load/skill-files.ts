// Reads the folder a spec's `skills:` names, as the SDK's catalog will see it: every entry below it
// (names starting with "." skipped, as the SDK skips them), symbolic links and special files reported,
// never followed. Only the reading happens here; what is wrong with it is the validator's business.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SkillTreeEntry {
  /** `/`-separated, relative to the skills folder. */
  readonly path: string;
  readonly kind: 'file' | 'directory' | 'unsupported';
  /** Files only: the size on disk. */
  readonly size?: number;
  /** Files only; absent when the file could not be read (`error` says why) or is past MAX_SKILL_FILE_BYTES. */
  readonly bytes?: Uint8Array;
  readonly error?: string;
}

/** Bound on entries walked, so a `skills:` pointed at a huge tree fails fast instead of reading it all. */
export const MAX_SKILL_TREE_ENTRIES = 20_000;

/** A file larger than a whole skill may be (16 MiB) is never read: its skill is over the limit anyway. */
export const MAX_SKILL_FILE_BYTES = 16 * 1024 * 1024;

export type SkillTree = { readonly entries: readonly SkillTreeEntry[]; readonly truncated: boolean } | { readonly error: string };

/** The tree under `dir` in code-unit order (the SDK's order), or why `dir` cannot be read as a folder. */
export function readSkillTree(dir: string): SkillTree {
  try {
    if (!lstatSync(dir).isDirectory()) return { error: 'is not a folder' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'no such folder' : String(code ?? e) };
  }
  const entries: SkillTreeEntry[] = [];
  let truncated = false;
  const visit = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(rel === '' ? dir : join(dir, rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    } catch (e) {
      entries.push({ path: rel, kind: 'unsupported', error: `cannot be listed (${(e as NodeJS.ErrnoException).code ?? String(e)})` });
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      if (entries.length >= MAX_SKILL_TREE_ENTRIES) {
        truncated = true;
        return;
      }
      const path = rel === '' ? name : `${rel}/${name}`;
      const abs = join(dir, path);
      const stat = lstatSync(abs);
      if (stat.isDirectory()) {
        entries.push({ path, kind: 'directory' });
        visit(path);
      } else if (stat.isFile()) {
        if (stat.size > MAX_SKILL_FILE_BYTES) {
          entries.push({ path, kind: 'file', size: stat.size });
          continue;
        }
        try {
          entries.push({ path, kind: 'file', size: stat.size, bytes: readFileSync(abs) });
        } catch (e) {
          entries.push({ path, kind: 'file', size: stat.size, error: `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` });
        }
      } else {
        entries.push({ path, kind: 'unsupported', error: stat.isSymbolicLink() ? 'is a symbolic link (never followed)' : 'is not a regular file or folder' });
      }
    }
  };
  visit('');
  return { entries, truncated };
}
