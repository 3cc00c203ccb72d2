import { basename, isAbsolute, relative, sep } from 'node:path';

/**
 * `to` relative to `from`, with forward slashes: the form paths take in generated output, so the bytes are
 * the same wherever the repository is checked out and on every OS. (Only on Windows, across drives, is
 * there no relative path; then the file name alone.)
 */
export function portablePath(from: string, to: string): string {
  const rel = relative(from, to);
  if (isAbsolute(rel)) return basename(to);
  return rel.split(sep).join('/') || '.';
}

/** Display name for a file: relative to cwd when inside it, so messages stay short and stable. */
export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : abs;
}
