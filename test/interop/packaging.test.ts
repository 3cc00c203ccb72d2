// What README's "Use mcpgen in your project" says, done for real: the three packages packed from this
// repository by scripts/pack-all.mjs (the install path README gives until they are on the registry), installed into an empty service in a temporary directory (outside the repository, so
// nothing resolves from its node_modules) by README's own commands, a server generated from
// `mcpgen init`'s spec, compiled by the service's TypeScript, installed for production with
// `npm ci --omit=dev`, then started and called with the official client over stdio and HTTP.
// It installs from the npm registry (through the npm cache: --prefer-offline), hence the interop suite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { startScript } from '../support/servers.js';

// The generator and everything it loads, and the client half (a dev dependency of a service that deploys its server).
const NEVER_IN_PRODUCTION = ['ts-morph', 'typescript', 'handlebars', 'yaml', 'minimatch', 'mcpgen', '@mcpgen/runtime-client', '@modelcontextprotocol/client'];
const MODERN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

// npm run exports npm_* settings (prefix, package name…) that would point npm back at this repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

// README's stand-in for the packs/ directory of a clone (docs/install.md).
const README_PACKS = '/path/to/mcpgen/packs';

function run(cwd: string, command: string, args: readonly string[], keep: 'stdout' | 'both' = 'both'): string {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  process.stdout.write(`  ${((Date.now() - started) / 1000).toFixed(1)} s  ${command} ${args.join(' ')}\n`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return keep === 'stdout' ? r.stdout : `${r.stdout}${r.stderr}`;
}

/** One README shell line as words: single quotes kept together, `# comments` dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/\s+#.*$/, '').matchAll(/'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

/** The ```sh blocks of README's "Use mcpgen in your project" section, as command lines. */
function readmeBlocks(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /^## Use mcpgen in your project\n([\s\S]*?)^## /m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README has no "Use mcpgen in your project" section');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.split('\n').filter((l) => l.trim() !== ''));
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += bytesUnder(p);
    else if (e.isFile()) total += statSync(p).size;
  }
  return total;
}

function installedPackages(nodeModules: string): string[] {
  const names: string[] = [];
  for (const e of readdirSync(nodeModules)) {
    if (e.startsWith('.')) continue;
    if (e.startsWith('@')) for (const s of readdirSync(join(nodeModules, e))) names.push(`${e}/${s}`);
    else names.push(e);
  }
  return names.filter((n) => existsSync(join(nodeModules, n, 'package.json'))).sort();
}

describe('a downstream service, set up as README says', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgen-packaging-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('installs, generates, compiles, deploys without dev dependencies, and serves the official client over stdio and HTTP', async () => {
    // README's install path: scripts/pack-all.mjs packs the three and prints the two install lines, which
    // must be README's with /path/to/mcpgen/packs standing for where it packed (already built: --no-build).
    const packs = join(tmp, 'packs');
    const printed = run(ROOT, process.execPath, ['scripts/pack-all.mjs', packs, '--no-build'], 'stdout').trim().split('\n');
    const fromReadme = (w: string) => (w.startsWith(`${README_PACKS}/`) ? join(packs, w.slice(README_PACKS.length + 1)) : w);

    const svc = join(tmp, 'svc');
    mkdirSync(svc);
    writeFileSync(join(svc, 'package.json'), `${JSON.stringify({ name: 'svc', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    const [setup, deploy] = readmeBlocks();
    expect(setup!.length).toBeGreaterThanOrEqual(5);
    expect(setup!.filter((l) => l.includes(README_PACKS)).map((l) => l.replaceAll(README_PACKS, packs)), 'pack-all prints README\'s install lines').toEqual(printed);
    let substituted = 0;
    for (const line of setup!) {
      const [command, ...args] = words(line).map((w) => (fromReadme(w) !== w ? (substituted++, fromReadme(w)) : w));
      // npm and npx as README gives them; the cache keeps the registry out of it where it can.
      const offline = command === 'npm' && args[0] === 'install' ? ['--prefer-offline', '--no-audit', '--no-fund'] : [];
      run(svc, command!, [...args, ...offline]);
      if (args.join(' ') === 'mcpgen generate') {
        // The handlers a team writes; and the service has what the generated code loads (no npm install warning).
        writeFileSync(join(svc, 'generated/hello/handlers.ts'), HANDLERS);
        expect(run(svc, 'npx', ['mcpgen', 'generate', '--check'])).not.toContain('npm install');
      }
    }
    expect(substituted, 'README installs the three packed packages').toBe(3);
    const main = join(svc, 'generated/hello/dist/main.js');
    expect(existsSync(main)).toBe(true);

    for (const line of deploy!) {
      const [command, ...args] = words(line);
      if (command !== 'npm') continue; // the node lines are what the checks below start
      run(svc, command, [...args, '--prefer-offline', '--no-audit', '--no-fund']);
    }
    const production = installedPackages(join(svc, 'node_modules'));
    for (const name of NEVER_IN_PRODUCTION) expect(production, name).not.toContain(name);
    expect(production).toContain('@mcpgen/runtime');

    // stdio, as a host launches it (command + args), with default options (2025-11-25 initialize) and pinned to 2026-07-28.
    for (const [options, era] of [[{}, '2025-11-25'], [MODERN, '2026-07-28']] as const) {
      const client = new Client({ name: 'host', version: '1' }, options);
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [main], cwd: svc, stderr: 'ignore' }));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
        expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).structuredContent).toEqual({ greeting: 'Hello, Ada!' });
      } finally {
        await client.close();
      }
    }
    const server = await startScript(main);
    try {
      for (const [options, era] of [[{}, '2025-11-25'], [MODERN, '2026-07-28']] as const) {
        const client = new Client({ name: 'host', version: '1' }, options);
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        try {
          expect(client.getNegotiatedProtocolVersion()).toBe(era);
          expect((await client.callTool({ name: 'greet', arguments: { name: 'Bo' } })).structuredContent).toEqual({ greeting: 'Hello, Bo!' });
        } finally {
          await client.close();
        }
      }
    } finally {
      await server.stop();
    }

    // Issue 24 item 1: the package's main entry (index.js) is the server side only, so production imports it
    // without the client half (a dev dependency, absent after --omit=dev) and serves from it.
    const fromIndex = join(svc, 'serve-from-index.mjs');
    writeFileSync(fromIndex, [
      "import * as pkg from './generated/hello/dist/index.js';",
      "import { handlers } from './generated/hello/dist/handlers.js';",
      "if ('HelloClient' in pkg) throw new Error('the main entry still carries the client');",
      'const running = await pkg.createHelloServer(handlers).listen({ port: 0 });',
      'console.error(`listening on ${running.url}`);',
    ].join('\n'));
    const indexServer = await startScript(fromIndex);
    try {
      const client = new Client({ name: 'host', version: '1' }, MODERN);
      await client.connect(new StreamableHTTPClientTransport(new URL(indexServer.url)));
      try {
        expect((await client.callTool({ name: 'greet', arguments: { name: 'Cy' } })).structuredContent).toEqual({ greeting: 'Hello, Cy!' });
      } finally {
        await client.close();
      }
    } finally {
      await indexServer.stop();
    }
    const generatedPackage = JSON.parse(readFileSync(join(svc, 'generated/hello/package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(generatedPackage.exports)).toEqual(['.', './client', './openai', './anthropic', './gemini', './package.json']);

    // Size against servers written on the SDK alone (BENCHMARKS.md): the same install commands, SDK only.
    const sizes: Record<string, number> = { mcpgen: bytesUnder(join(svc, 'node_modules')) };
    const sdkVersion = (JSON.parse(readFileSync(join(svc, 'node_modules/@modelcontextprotocol/server/package.json'), 'utf8')) as { version: string }).version;
    for (const [label, pkgs] of [['sdkServer', ['server']], ['sdkServerAndClient', ['server', 'client']]] as const) {
      const dir = join(tmp, label);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), '{ "name": "sdk-only", "version": "1.0.0", "private": true, "type": "module" }\n');
      run(dir, 'npm', ['install', ...pkgs.map((p) => `@modelcontextprotocol/${p}@${sdkVersion}`), '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev']);
      sizes[label] = bytesUnder(join(dir, 'node_modules'));
    }
    const mb = (n: number) => (n / 1e6).toFixed(2);
    process.stdout.write(`production node_modules: mcpgen service ${mb(sizes.mcpgen!)} MB (${production.length} packages); SDK server only ${mb(sizes.sdkServer!)} MB; SDK server + client ${mb(sizes.sdkServerAndClient!)} MB\n`);
    // What mcpgen adds to a server deploy over the SDK server alone: the runtime, ajv, ajv-formats and jose.
    expect(sizes.mcpgen! - sizes.sdkServer!).toBeLessThan(3e6);
  }, 480_000);
});

const HANDLERS = `import type { HelloHandlers } from './server.js';

export const handlers: HelloHandlers = {
  async greet({ name }) {
    return { greeting: \`Hello, \${name}!\` };
  },
  async readReadme() {
    return '# hello';
  },
  async promptIntroduce({ person }) {
    return \`Introduce \${person}.\`;
  },
};
`;
