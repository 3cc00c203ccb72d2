// What README's "Use mcpgen in your project" says, done for real: the three packages packed from this
// repository by scripts/pack-all.mjs into the service's vendor/mcpgen/ (the install path README gives until
// they are on the registry), installed into an empty service in a temporary directory (outside the
// repository, so nothing resolves from its node_modules) by README's own commands, a server generated from
// `mcpgen init`'s spec, compiled by the service's TypeScript, installed for production with
// `npm ci --omit=dev`, then started and called with the official client over stdio and HTTP. Then the
// service is committed with git and cloned elsewhere, as a teammate or CI runner gets it: there `npm ci`
// with an empty npm cache (so nothing the first install cached can hide a path that exists on one machine
// only), on Node 22, tsc and a tool call must pass, with mcpgen's packages coming from vendor/mcpgen/.
// It installs from the npm registry, hence the interop suite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { startScript } from '../support/servers.js';
import { cloneAndInstall } from './packaging-clone.js';

// The generator and everything it loads, and the client half (a dev dependency of a service that deploys its server).
const NEVER_IN_PRODUCTION = ['ts-morph', 'typescript', 'handlebars', 'yaml', 'minimatch', 'mcpgen', '@mcpgen/runtime-client', '@modelcontextprotocol/client'];
const MODERN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

// npm run exports npm_* settings (prefix, package name…) that would point npm back at this repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

// README's stand-in for the service pack-all vendors into; its install lines name packs inside the service.
const README_SERVICE = '/path/to/your-service';
const VENDORED = './vendor/mcpgen/';

function run(cwd: string, command: string, args: readonly string[], keep: 'stdout' | 'both' = 'both', extraEnv: Record<string, string> = {}): string {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 240_000 });
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
    const svc = join(tmp, 'svc');
    mkdirSync(svc);
    writeFileSync(join(svc, 'package.json'), `${JSON.stringify({ name: 'svc', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    const [setup, deploy] = readmeBlocks();
    expect(setup!.length).toBeGreaterThanOrEqual(6);
    // README's install path: `npm run pack-all -- <service>` in this clone packs the three into the
    // service's vendor/mcpgen/ and prints the two install lines, which must be README's as written (already built: --no-build).
    expect(words(setup![0]!)).toEqual(['npm', 'run', 'pack-all', '--', README_SERVICE]);
    const printed = run(ROOT, 'npm', ['run', '--silent', 'pack-all', '--', svc, '--no-build'], 'stdout').trim().split('\n');
    expect(setup!.filter((l) => l.includes(VENDORED)), 'pack-all prints README\'s install lines').toEqual(printed);
    expect(readdirSync(join(svc, 'vendor/mcpgen')).sort()).toEqual(['mcpgen-0.1.0.tgz', 'mcpgen-runtime-0.1.0.tgz', 'mcpgen-runtime-client-0.1.0.tgz']);
    let substituted = 0;
    for (const line of setup!.slice(1)) {
      const [command, ...args] = words(line);
      substituted += args.filter((w) => w.startsWith(VENDORED)).length;
      // npm and npx as README gives them; the cache keeps the registry out of it where it can.
      const offline = command === 'npm' && args[0] === 'install' ? ['--prefer-offline', '--no-audit', '--no-fund'] : [];
      run(svc, command!, [...args, ...offline]);
      if (args.join(' ') === 'mcpgen generate') {
        // The handlers a team writes; and the service has what the generated code loads (no npm install warning).
        writeFileSync(join(svc, 'generated/hello/handlers.ts'), HANDLERS);
        expect(run(svc, 'npx', ['mcpgen', 'generate', '--check'])).not.toContain('npm install');
      }
    }
    // npm recorded paths inside the service, which every clone has; the generated README gives the same line.
    const manifest = JSON.parse(readFileSync(join(svc, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect([manifest.dependencies['@mcpgen/runtime'], manifest.devDependencies.mcpgen, manifest.devDependencies['@mcpgen/runtime-client']])
      .toEqual(['file:vendor/mcpgen/mcpgen-runtime-0.1.0.tgz', 'file:vendor/mcpgen/mcpgen-0.1.0.tgz', 'file:vendor/mcpgen/mcpgen-runtime-client-0.1.0.tgz']);
    const generatedReadme = readFileSync(join(svc, 'generated/hello/README.md'), 'utf8');
    expect(generatedReadme).toContain(`\n${printed[0]}\n`);
    expect(generatedReadme).toContain("\nnpm install @mcpgen/runtime@0.1.0 '@modelcontextprotocol/server@^2.4.0'\n");
    expect(substituted, 'README installs the three vendored packs').toBe(3);
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

    // A teammate's clone or a CI runner: nothing but what the service committed, and an empty npm cache.
    // Another depth too: a `file:../…` path that happened to resolve beside the service would not here.
    const clone = await cloneAndInstall(svc, join(tmp, 'runner/work/svc'), run);
    expect(clone.lockedFromVendor).toEqual({ mcpgen: 'file:vendor/mcpgen/mcpgen-0.1.0.tgz', '@mcpgen/runtime': 'file:vendor/mcpgen/mcpgen-runtime-0.1.0.tgz', '@mcpgen/runtime-client': 'file:vendor/mcpgen/mcpgen-runtime-client-0.1.0.tgz' });
    expect(clone.installOutput, 'no EBADENGINE on a supported Node').not.toMatch(/EBADENGINE/);
    expect(clone.greeting).toEqual({ greeting: 'Hello, Di!' });

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
  }, 900_000); // two installs from the registry, one of them with an empty cache: minutes on a busy machine
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
