import { dirname } from 'node:path';
import { makeDir, moveFile, removePath, writeDurably } from './fs-ops.js';

/**
 * Write a few independent files (`mcpgen init`) through a temp file + rename, so a reader never sees
 * half a file. All temp files are written first; only when all succeeded are they renamed into place
 * (a failure leaves the old files). Package output uses the journaled transaction in transaction.ts.
 */
export function writeFilesAtomically(files: ReadonlyMap<string, string>): void {
  const staged: [tmp: string, target: string][] = [];
  try {
    for (const [target, content] of files) {
      makeDir(dirname(target));
      const tmp = `${target}.${process.pid}.mcpgen-tmp`;
      staged.push([tmp, target]);
      writeDurably(tmp, content);
    }
  } catch (e) {
    for (const [tmp] of staged) {
      try {
        removePath(tmp);
      } catch {
        // the first error is the one to report
      }
    }
    throw e;
  }
  for (const [tmp, target] of staged) moveFile(tmp, target);
}
