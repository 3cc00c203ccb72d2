// bin/mcpgen.js runs the CLI from two files bundled from the same sources (scripts/bundle-cli.mjs):
// dist/cli/check-bundle.cjs for `check`, dist/cli/cli-bundle.cjs for the other commands. Each must do
// exactly what the CLI does in-process: `check` on every invalid fixture (ajv's strict compile and value
// checks included: the bundles load ajv at run time) and the example specs, `generate` byte for byte.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempDir } from '../helpers.js';

function bin(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (relative path → content). */
function tree(dir: string, rel = ''): Record<string, string> {
  return Object.fromEntries(
    readdirSync(join(dir, rel))
      .sort()
      .flatMap((name) => {
        const path = join(rel, name);
        return statSync(join(dir, path)).isDirectory() ? Object.entries(tree(dir, path)) : [[path, readFileSync(join(dir, path), 'utf8')]];
      }),
  );
}

const fixtures = readdirSync(join(ROOT, 'test/fixtures/invalid')).filter((f) => f.endsWith('.yaml')).map((f) => `test/fixtures/invalid/${f}`);
const specs = readdirSync(join(ROOT, 'specs')).filter((f) => f.endsWith('.yaml')).map((f) => `specs/${f}`);

describe('check from the bundle', () => {
  it('is built', () => {
    expect(existsSync(join(ROOT, 'dist/cli/check-bundle.cjs'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist/cli/cli-bundle.cjs'))).toBe(true);
  });

  it('reports what the in-process CLI reports, on every invalid fixture and example spec', async () => {
    expect(fixtures.length).toBeGreaterThan(40);
    // With every provider target: the bundle carries the provider rules too.
    const args = ['check', '--format', 'json', '--target', 'openai-strict,anthropic,gemini', ...fixtures, ...specs];
    const expected = await cli(args);
    const got = bin(args);
    expect(got.stderr).toBe(expected.stderr);
    expect(got.stdout).toBe(expected.stdout);
    expect(got.code).toBe(expected.code);
    // Schemas outside the plain subset reached ajv's compiler in the bundle too.
    for (const code of ['MCPG019', 'MCPG022', 'MCPG040', 'MCPG167', 'MCPG168', 'MCPG169', 'MCPG170']) expect(got.stdout).toContain(`"${code}"`);
  });

  it('reports the same text for a schema only ajv can judge, checked on its own', async () => {
    for (const file of ['test/fixtures/invalid/MCPG111-unknown-format.yaml', 'test/fixtures/invalid/MCPG022-default.yaml', 'specs/everything.yaml']) {
      const expected = await cli(['check', '--no-color', file]);
      expect(bin(['check', '--no-color', file]), file).toEqual(expected);
    }
  });
});

describe('what check loads', () => {
  /** The CommonJS modules a `check` run loaded (test/support/loaded-modules.mjs). */
  function modulesOf(file: string): string[] {
    const dir = tempDir('mcpgen-check-modules-');
    const list = join(dir, 'modules.txt');
    const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test/support/loaded-modules.mjs'), join(ROOT, 'bin/mcpgen.js'), 'check', file], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, MCPGEN_LOADED_MODULES_FILE: list },
    });
    expect(r.status, r.stderr).not.toBeNull();
    return readFileSync(list, 'utf8').split('\n');
  }

  it('leaves ajv’s compiler unloaded for plain schemas, and loads it for one only ajv can judge', () => {
    const dir = tempDir('mcpgen-plain-');
    const spec = join(dir, 'plain.yaml');
    writeFileSync(
      spec,
      [
        'mcpgen: 1',
        'server: { name: plain, version: 1.0.0 }',
        '$defs:',
        '  Window: { type: object, properties: { from: { type: string, format: date-time } } }',
        'tools:',
        '  - name: find',
        '    description: Finds.',
        '    input:',
        '      type: object',
        '      properties:',
        '        q: { type: string, minLength: 1 }',
        '        mode: { type: string, enum: [fast, safe] }',
        '        window: { $ref: "#/$defs/Window" }',
        '      required: [q]',
        '',
      ].join('\n'),
    );
    const compiler = (modules: string[]) => modules.some((m) => m.endsWith('/ajv/dist/core.js'));
    // Helpers the precompiled spec-format validator calls are fine; the compiler (ajv/dist/core.js) is not.
    expect(compiler(modulesOf(spec))).toBe(false);
    expect(compiler(modulesOf('test/fixtures/invalid/MCPG022-default.yaml'))).toBe(true);
  });
});

describe('generate from the bundle', { timeout: 120_000 }, () => {
  it('writes, byte for byte, what the in-process CLI writes for the example specs', async () => {
    const inProcess = tempDir('mcpgen-gen-in-process-');
    const bundled = tempDir('mcpgen-gen-bundle-');
    const expected = await cli(['generate', ...specs, '--out', inProcess]);
    expect(expected.code, expected.stderr).toBe(0);
    const got = bin(['generate', ...specs, '--out', bundled], { MCPGEN_CACHE_DIR: tempDir('mcpgen-gen-cache-') });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stderr.replaceAll(bundled, 'OUT')).toBe(expected.stderr.replaceAll(inProcess, 'OUT'));
    const files = tree(bundled);
    expect(Object.keys(files).length).toBeGreaterThan(50);
    // The manifests and banners name the spec relative to the project folder, the same for both.
    expect(files).toEqual(tree(inProcess));
  });
});
