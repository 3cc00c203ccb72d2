import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/**
 * Files matching a glob (`*`, `?`, `**`, `{a,b}`), relative to `cwd`, sorted so output never depends on
 * directory order. Node 20 has no fs.glob; specs only need this small subset. With `within` (a real
 * path), the walk never enters a directory whose real path lies outside it, nor one it already saw
 * (symbolic-link loops).
 */
export function expandGlob(pattern: string, cwd: string, within?: string): string[] {
  const normalized = pattern.split(sep).join('/');
  const base = globBase(pattern, cwd);
  const matcher = globRegExp(posix.normalize(normalized));
  const out: string[] = [];
  walk(base, (abs) => {
    const rel = toPosix(relative(cwd, abs));
    if (matcher.test(rel) || matcher.test(toPosix(abs))) out.push(rel);
  }, within === undefined ? undefined : { root: within, seen: new Set() });
  return [...new Set(out)].sort();
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

function walk(dir: string, visit: (file: string) => void, fence?: { root: string; seen: Set<string> }): void {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) return;
    if (fence !== undefined) {
      const real = realpathSync(dir);
      if (!isInside(real, fence.root) || fence.seen.has(real)) return;
      fence.seen.add(real);
    }
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === '.git') continue;
    const abs = join(dir, name);
    let st;
    try {
      st = statSync(abs);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(abs, visit, fence);
    else if (st.isFile()) visit(abs);
  }
}

function toPosix(p: string): string {
  return p.split(sep).join('/');
}

export function globRegExp(pattern: string): RegExp {
  let re = '';
  const p = pattern.replace(/^\.\//, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') {
      if (p[i + 1] === '*') {
        const slash = p[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = p.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${p.slice(i + 1, end).split(',').map(escapeRe).join('|')})`;
        i = end;
      }
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The target of a path with every symbolic link resolved; undefined when it does not exist. */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
