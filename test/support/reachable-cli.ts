// The CLI at a path another user can reach. A test that runs it as `nobody` (root writes anywhere, so a real
// permission error needs another user) fails on the wrong thing when the clone lives under a folder that user
// cannot enter: a clone made by root inside a `mktemp -d` folder (mode 0700) is one.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ROOT, tempDir } from './root.js';

/** What the installed package holds (package.json `files`), the workspaces it depends on, and package.json. */
const PACKAGE_FILES = ['package.json', 'bin', 'dist', 'schema', 'templates', 'packages/runtime', 'packages/runtime-client'];

/** Whether `uid` can read `file` (asked of a process running as that user: the kernel decides, not a guess from modes). */
function canRead(uid: number, file: string): boolean {
  const r = spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1], 4)', file], { uid, gid: uid, stdio: 'ignore' });
  return r.status === 0;
}

/**
 * bin/mcpgen.js and the Node to run it as `uid` can run them: this clone's and this Node when that user can
 * read them, else a copy of the CLI and its production dependencies (package-lock entries not marked dev)
 * in a fresh 0755 folder, made of hard links (a file's permissions are its own, not its folder's) or,
 * across file systems, of copies; the same for the Node binary (CI's Node 22, 24 and 26 live inside the
 * clone, under .ci/nodes).
 */
export function cliReachableBy(uid: number): { bin: string; node: string; copied: boolean } {
  const bin = join(ROOT, 'bin/mcpgen.js');
  const nodeReachable = canRead(uid, process.execPath);
  if (nodeReachable && canRead(uid, bin)) return { bin, node: process.execPath, copied: false };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const modules = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true).map(([path]) => path);
  const dest = tempDir('mcpgen-reachable-');
  chmodSync(dest, 0o755);
  const paths = [...PACKAGE_FILES, ...modules];
  linkOrCopy(paths, ROOT, dest);
  let node = process.execPath;
  if (!nodeReachable) {
    mkdirSync(join(dest, 'node-bin'), { mode: 0o755 });
    linkOrCopy([basename(process.execPath)], dirname(process.execPath), join(dest, 'node-bin'));
    node = join(dest, 'node-bin', basename(process.execPath));
  }
  return { bin: join(dest, 'bin/mcpgen.js'), node, copied: true };
}

function linkOrCopy(paths: readonly string[], from: string, dest: string): void {
  try {
    execFileSync('cp', ['-al', '--parents', ...paths, dest], { cwd: from, stdio: 'pipe' });
  } catch {
    execFileSync('cp', ['-a', '--parents', ...paths, dest], { cwd: from, stdio: 'pipe' });
  }
}
