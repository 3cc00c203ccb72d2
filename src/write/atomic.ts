import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EnvironmentError } from '../errors.js';

/**
 * Write every file through a temp file + rename, so a reader never sees half a file. All temp files are
 * written first; only when all succeeded are they renamed into place (a failure leaves the old tree).
 */
export function writeFilesAtomically(files: ReadonlyMap<string, string>): void {
  const staged: [tmp: string, target: string][] = [];
  try {
    for (const [target, content] of files) {
      mkdirSync(dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.mcpgen-tmp`;
      writeFileSync(tmp, content);
      staged.push([tmp, target]);
    }
  } catch (e) {
    for (const [tmp] of staged) rmSync(tmp, { force: true });
    throw new EnvironmentError(`cannot write output: ${(e as Error).message}`);
  }
  for (const [tmp, target] of staged) renameSync(tmp, target);
}
