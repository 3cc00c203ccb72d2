#!/usr/bin/env node
// Packs the three packages (mcpgen, @mcpgen/runtime, @mcpgen/runtime-client) into one directory and
// prints the npm install lines that use them: the install path that works until they are on the registry.
// Usage: node scripts/pack-all.mjs [destination, default packs/] [--no-build]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dest = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'packs'));
const version = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).version;

// Released together: a tarball set whose versions differ would install two runtimes.
const versions = new Set(['.', 'packages/runtime', 'packages/runtime-client'].map(version));
if (versions.size !== 1) throw new Error(`the three packages must have one version, found ${[...versions].join(', ')}`);
const [v] = versions;

// npm's own output goes to stderr, so stdout carries only the install lines (scripts can read them).
const npm = (argv) => execFileSync('npm', argv, { cwd: root, stdio: ['ignore', 2, 'inherit'] });
if (!args.includes('--no-build')) npm(['run', 'build']);
mkdirSync(dest, { recursive: true });
// --ignore-scripts: prepack would build once per package; the build above covers all three.
for (const ws of [['--workspace', '@mcpgen/runtime'], ['--workspace', '@mcpgen/runtime-client'], []]) {
  npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', dest, ...ws]);
}
const tgz = (name) => join(dest, `${name}-${v}.tgz`);
process.stdout.write([
  `npm install ${tgz('mcpgen-runtime')} '@modelcontextprotocol/server@^2.4.0'`,
  `npm install --save-dev ${tgz('mcpgen')} ${tgz('mcpgen-runtime-client')} '@modelcontextprotocol/client@^2.4.0' typescript@5 @types/node@20`,
  '',
].join('\n'));
