// Issue 24 item 7: the three packages are publish-ready. `npm publish --dry-run` (no registry contacted:
// a dummy token in a throwaway userconfig stands in for a login) must run without one warning for each,
// their package.json fields must be right, and each tarball must hold what its exports, types and bin
// name and nothing from the sources or tests. The versions are one: they are released together.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';

const PACKAGES = [
  { name: 'mcpgen', dir: '.', workspace: [] as string[] },
  { name: '@mcpgen/runtime', dir: 'packages/runtime', workspace: ['--workspace', '@mcpgen/runtime'] },
  { name: '@mcpgen/runtime-client', dir: 'packages/runtime-client', workspace: ['--workspace', '@mcpgen/runtime-client'] },
];
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

interface Manifest {
  name: string; version: string; license?: string; types?: string; files?: string[];
  engines?: { node?: string }; repository?: { type?: string; url?: string; directory?: string };
  publishConfig?: { access?: string }; bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>; dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** Every file a manifest points at: types, bin, and each condition of each export. */
function pointedAt(m: Manifest): string[] {
  const out = [...(m.types === undefined ? [] : [m.types]), ...Object.values(m.bin ?? {})];
  for (const target of Object.values(m.exports ?? {})) out.push(...(typeof target === 'string' ? [target] : Object.values(target)));
  return out.map((p) => p.replace(/^\.\//, ''));
}

describe('the three packages are publish-ready', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgen-publish-'));
  const userconfig = join(tmp, 'npmrc');
  writeFileSync(userconfig, '//registry.npmjs.org/:_authToken=dry-run-dummy\n');
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('keeps the three versions in step, and the generator depends on exactly that runtime', () => {
    const [cli, runtime, client] = PACKAGES.map((p) => manifest(p.dir));
    expect(new Set([cli!.version, runtime!.version, client!.version]).size).toBe(1);
    expect(cli!.dependencies!['@mcpgen/runtime']).toBe(runtime!.version);
    expect(cli!.dependencies!['@mcpgen/runtime-client']).toBe(client!.version);
    expect(client!.dependencies!['@mcpgen/runtime']).toBe(runtime!.version);
  });

  for (const pkg of PACKAGES) {
    it(`${pkg.name}: npm publish --dry-run is clean and the tarball holds what the manifest names`, () => {
      const m = manifest(pkg.dir);
      expect(m.license).toBe('MIT');
      // README's "Node versions": the generator needs 22.19 (its OpenAPI parser); the runtimes still allow 20.
      expect(m.engines?.node).toBe(pkg.dir === '.' ? '>=22.19.0' : '>=20');
      expect(m.repository?.type).toBe('git');
      expect(m.repository?.directory).toBe(pkg.dir === '.' ? undefined : pkg.dir);
      // mcpgen is a command (bin), not a library: no main entry, no types; the runtimes are imported.
      if (pkg.dir === '.') expect([m.types, m.exports?.['.']]).toEqual([undefined, undefined]);
      else expect(m.types).toBeDefined();
      if (pkg.name.startsWith('@')) expect(m.publishConfig?.access, 'a scoped package publishes restricted by default').toBe('public');

      const r = spawnSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', '--userconfig', userconfig, ...pkg.workspace], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      // npm warns when it has to correct a manifest (e.g. a bin path it rewrites) or lacks a login.
      expect(r.stderr.split('\n').filter((l) => /^npm (warn|error)/i.test(l))).toEqual([]);
      const json = JSON.parse(r.stdout) as Record<string, { files: { path: string }[] }> & { files?: { path: string }[] };
      const files = new Set((json[pkg.name] ?? json).files!.map((f) => f.path));
      for (const p of [...pointedAt(m), 'LICENSE', 'README.md', 'package.json']) expect(files, `${pkg.name} ships ${p}`).toContain(p);
      for (const f of files) expect(f, `${pkg.name} ships ${f}`).not.toMatch(/^(src|test|scripts|node_modules)\/|\.tsbuildinfo$|^tsconfig/);
    }, 120_000);
  }
});
