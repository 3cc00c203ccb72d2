#!/usr/bin/env node
// The Debian packages the interop suite starts for real (nginx as the balancer, Redis — standalone, Sentinel, Cluster — for scale-out,
// Chromium for MCP Apps views, Neovim as the editor that drives `mcpgen lsp`). README's test command
// runs this first (npm run test:interop), so a fresh machine gets them installed when the command runs as root, and otherwise one line naming
// exactly what is missing and the apt-get line, instead of a raw error from Playwright or a spawn.
// .ci/run runs README's command and nothing else. --check: never install, only report.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the interop tests look for each program (test/support/nginx.ts, redis.ts, apps-browser.test.ts). */
export const SYSTEM_PACKAGES = [
  { program: 'nginx', debian: 'nginx-light', paths: ['/usr/sbin/nginx', '/usr/bin/nginx'] },
  { program: 'redis-server', debian: 'redis-server', paths: ['/usr/bin/redis-server', '/usr/local/bin/redis-server'] },
  // Sentinel failover (test/support/redis-topologies.ts); redis-cli (for `--cluster create`) comes with redis-tools.
  { program: 'redis-sentinel', debian: 'redis-sentinel', paths: ['/usr/bin/redis-sentinel', '/usr/local/bin/redis-sentinel'] },
  { program: 'redis-cli', debian: 'redis-tools', paths: ['/usr/bin/redis-cli', '/usr/local/bin/redis-cli'] },
  { program: 'chromium', debian: 'chromium', paths: ['/usr/bin/chromium'] },
  { program: 'nvim', debian: 'neovim', paths: ['/usr/bin/nvim'] },
];

/** The Debian packages whose program is at none of the paths the tests use. */
export function missingPackages(exists = existsSync) {
  return SYSTEM_PACKAGES.filter((p) => !p.paths.some((path) => exists(path))).map((p) => p.debian);
}

/** The one line printed when they cannot be installed here. */
export function missingMessage(missing) {
  return `npm run test:interop needs ${missing.join(', ')} (Debian ${missing.length === 1 ? 'package' : 'packages'}, not found at ` +
    `${SYSTEM_PACKAGES.filter((p) => missing.includes(p.debian)).flatMap((p) => p.paths).join(', ')}); run as root to install ` +
    `them, or: sudo apt-get install -y ${missing.join(' ')}`;
}

function install(missing) {
  process.stderr.write(`installing ${missing.join(' ')} (apt-get) for the interop suite\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...missing]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) return;
  }
}

function main() {
  const missing = missingPackages();
  if (missing.length === 0) return 0;
  const canInstall = !process.argv.includes('--check') && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (canInstall) install(missing);
  const left = missingPackages();
  if (left.length === 0) return 0;
  process.stderr.write(`${missingMessage(left)}\n`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
