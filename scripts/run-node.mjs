// Shared by the build and test scripts: a Node script run from the repository root with this Node, its
// output passed through; resolves to its exit code (128 when a signal ended it).
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function runNode(args) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128))));
}

/** Runs `steps` one after the other, stopping at the first that fails; resolves to its exit code or 0. */
export async function inOrder(...steps) {
  for (const step of steps) {
    const code = await step();
    if (code !== 0) return code;
  }
  return 0;
}
