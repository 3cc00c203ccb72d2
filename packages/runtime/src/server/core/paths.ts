// Resolving a `file://` template value inside a root directory. The runtime already refuses values that
// leave their segment (see templateValueProblem); these helpers are the handler's half of R3 ("MUST
// prevent path traversal for file://"): the joined path must stay inside the root, also through symlinks.
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * `root` joined with a template value (a path with "/" separators, or its segments), or `undefined` when
 * the result would leave `root` (".." segments, an absolute path, a drive letter, NUL). Purely lexical:
 * use realPathInRoot when the tree may hold symlinks.
 */
export function resolveInRoot(root: string, path: string | readonly string[]): string | undefined {
  const segments = typeof path === 'string' ? path.split('/') : [...path];
  if (segments.some((s) => s.includes('\u0000') || s.includes('\\') || s === '..' || (sep === '\\' && /^[A-Za-z]:/.test(s)))) return undefined;
  const base = resolve(root);
  const full = resolve(base, ...segments.filter((s) => s !== '' && s !== '.'));
  return inside(base, full) ? full : undefined;
}

/**
 * Like resolveInRoot, then follows symlinks: the real path of an existing file inside the real root, or
 * `undefined` when it does not exist or its real location is outside the root.
 */
export async function realPathInRoot(root: string, path: string | readonly string[]): Promise<string | undefined> {
  const lexical = resolveInRoot(root, path);
  if (lexical === undefined) return undefined;
  try {
    const [realRoot, real] = await Promise.all([realpath(root), realpath(lexical)]);
    return inside(realRoot, real) ? real : undefined;
  } catch {
    return undefined; // missing file, or a dangling link
  }
}

function inside(root: string, full: string): boolean {
  const rel = relative(root, full);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
