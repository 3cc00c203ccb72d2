// Helpers for the write-stage tests: throwaway projects, whole-tree snapshots, the CLI as a real process.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, tempDir } from '../support/root.js';
import { cliReachableBy } from '../support/reachable-cli.js';

/** A project folder holding copies of the named example specs under specs/ and a config, like a user's repo. */
export function project(specs: readonly string[], dir = tempDir()): string {
  mkdirSync(join(dir, 'specs'), { recursive: true });
  for (const s of specs) cpSync(join(ROOT, 'specs', s), join(dir, 'specs', s));
  writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs:\n  - specs/*.yaml\nout: generated\n');
  return dir;
}

/** Every file under `dir` (dot-files and folders included) by path relative to it; empty folders as `<dir>/`. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    const names = readdirSync(d).sort();
    if (names.length === 0 && d !== dir) out[`${relative(dir, d)}/`] = '';
    for (const name of names) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[relative(dir, abs)] = readFileSync(abs, 'utf8');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export interface ProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * bin/mcpgen.js in its own process (needs dist/: `npm test` builds it first); as user `uid` when given,
 * from a path that user can reach (support/reachable-cli.ts), removed after.
 */
export async function runCli(args: readonly string[], cwd: string, env: Record<string, string> = {}, uid?: number): Promise<ProcessResult> {
  const cli = uid === undefined ? { bin: join(ROOT, 'bin/mcpgen.js'), node: process.execPath, copied: false } : cliReachableBy(uid);
  try {
    return await spawnCli(cli.node, cli.bin, args, cwd, env, uid);
  } finally {
    if (cli.copied) rmSync(join(cli.bin, '../..'), { recursive: true, force: true });
  }
}

function spawnCli(node: string, bin: string, args: readonly string[], cwd: string, env: Record<string, string>, uid: number | undefined): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Run `task` over `items`, `limit` at a time (two cores, shared). */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
