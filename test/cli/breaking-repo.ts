// What the `mcpgen breaking` CLI tests share: bin/mcpgen.js spawned in a folder, git run there, and a
// fresh repository with a committer configured.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, tempDir } from '../support/root.js';

export function run(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

export function gitRepo(prefix: string): string {
  const repo = tempDir(prefix);
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 't');
  return repo;
}
