#!/usr/bin/env node
// Packs the three packages (mcpgen, @mcpgen/runtime, @mcpgen/runtime-client) into a downstream repository's
// vendor/mcpgen/ and prints the npm install lines to run at that repository's root: the install path that
// survives clones and CI until the packages are on the registry (npm writes `file:vendor/mcpgen/….tgz`,
// a path inside the repository, where a path to a clone of mcpgen would exist on one machine only).
// Usage: npm run pack-all -- <repository> [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const target = args.find((a) => !a.startsWith('--'));
if (target === undefined || !existsSync(target) || !statSync(target).isDirectory()) {
  process.stderr.write(`usage: npm run pack-all -- <repository> [--no-build]\n  packs mcpgen's three packages into <repository>/vendor/mcpgen/ and prints the install lines to run there\n${target === undefined ? '' : `pack-all: ${target} is not a folder\n`}`);
  process.exit(2);
}
const version = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).version;

// Released together: a tarball set whose versions differ would install two runtimes.
const versions = new Set(['.', 'packages/runtime', 'packages/runtime-client'].map(version));
if (versions.size !== 1) throw new Error(`the three packages must have one version, found ${[...versions].join(', ')}`);
const [v] = versions;

// npm's own output goes to stderr, so stdout carries only the install lines (scripts can read them).
const npm = (argv) => execFileSync('npm', argv, { cwd: root, stdio: ['ignore', 2, 'inherit'] });
if (!args.includes('--no-build')) npm(['run', 'build']);
// The names and lines are the generator's own (the generated README prints the same ones).
const { VENDOR_DIR, generatedRuntimeDependencies, packFileName, vendoredInstallLine, vendoredPack } = await import(pathToFileURL(join(root, 'dist/common/package-files.js')).href);

const dest = resolve(target, VENDOR_DIR);
mkdirSync(dest, { recursive: true });
// The folder is mcpgen's: packs of an earlier version go, so it holds the set package.json names.
for (const f of readdirSync(dest)) if (/^mcpgen-.*\.tgz$/.test(f)) rmSync(join(dest, f));
// --ignore-scripts: prepack would build once per package; the build above covers all three. One npm
// process packs the root and both workspaces (three `npm pack` runs cost three npm start-ups).
npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', dest, '--workspaces', '--include-workspace-root']);
for (const name of ['mcpgen', '@mcpgen/runtime', '@mcpgen/runtime-client']) {
  if (!existsSync(join(dest, packFileName(name, v)))) throw new Error(`npm pack wrote no ${packFileName(name, v)} in ${dest}`);
}
const { server, client } = generatedRuntimeDependencies();
process.stdout.write([
  vendoredInstallLine(server),
  vendoredInstallLine(client, true, { before: [vendoredPack('mcpgen', v)], after: ['typescript@5', '@types/node@22'] }),
  '',
].join('\n'));
