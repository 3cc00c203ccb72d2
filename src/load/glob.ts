import { readdirSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { globSync } from 'tinyglobby';

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/**
 * Files matching a glob (tinyglobby: `*`, `?`, `**`, `{a,b}`, …), relative to `cwd`, sorted so output
 * never depends on directory order; node_modules and .git are never entered. With `within` (a real
 * path), the walk reads no directory whose real path lies outside it (a directory link leading out of the
 * project is not entered; a file link is listed, for the caller to refuse by name); no directory is read twice.
 */
export function expandGlob(pattern: string, cwd: string, within?: string): string[] {
  const found = globSync(pattern.split(sep).join('/'), {
    cwd,
    dot: true,
    ignore: ['**/node_modules/**', '**/.git/**'],
    fs: { readdirSync: fencedReaddir(within) },
  });
  return [...new Set(found.map((f) => relative(cwd, resolve(cwd, f)).split(sep).join('/')))].sort();
}

/**
 * readdirSync that lists nothing for a directory whose real path lies outside `root` or was read
 * already: a symbolic-link loop is walked once (fdir stops a loop only on its second turn).
 */
function fencedReaddir(root: string | undefined): typeof readdirSync {
  const seen = new Set<string>();
  return ((dir: string, options: never) => {
    const real = realPath(dir);
    if (real === undefined || (root !== undefined && !isInside(real, root)) || seen.has(real)) return [];
    seen.add(real);
    return readdirSync(dir, options);
  }) as typeof readdirSync;
}

/** The directory a glob's walk starts from: its path up to the first segment with a wildcard. */
export function globBase(pattern: string, cwd: string): string {
  const parts = pattern.split(sep).join('/').split('/');
  const firstGlob = parts.findIndex(isGlob);
  const baseParts = firstGlob < 0 ? parts : parts.slice(0, firstGlob);
  return resolve(cwd, baseParts.join('/') || '.');
}

/** Whether `path` is `dir` or lies below it (both absolute, already resolved). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The target of a path with every symbolic link resolved; undefined when it does not exist. */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
