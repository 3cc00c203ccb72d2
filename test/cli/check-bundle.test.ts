// `mcpgen check` through bin/mcpgen.js runs dist/cli/check-bundle.cjs (scripts/bundle-check.mjs), one file
// built from the same sources: it must say exactly what the CLI says in-process, on every invalid fixture
// (ajv's strict compile and value checks included: the bundle loads ajv at run time) and the example specs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers.js';

function bin(args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fixtures = readdirSync(join(ROOT, 'test/fixtures/invalid')).filter((f) => f.endsWith('.yaml')).map((f) => `test/fixtures/invalid/${f}`);
const specs = readdirSync(join(ROOT, 'specs')).filter((f) => f.endsWith('.yaml')).map((f) => `specs/${f}`);

describe('check from the bundle', () => {
  it('is built', () => {
    expect(existsSync(join(ROOT, 'dist/cli/check-bundle.cjs'))).toBe(true);
  });

  it('reports what the in-process CLI reports, on every invalid fixture and example spec', async () => {
    expect(fixtures.length).toBeGreaterThan(40);
    const args = ['check', '--format', 'json', ...fixtures, ...specs];
    const expected = await cli(args);
    const got = bin(args);
    expect(got.stderr).toBe(expected.stderr);
    expect(got.stdout).toBe(expected.stdout);
    expect(got.code).toBe(expected.code);
    // Schemas outside the plain subset reached ajv's compiler in the bundle too.
    for (const code of ['MCPG019', 'MCPG022', 'MCPG040']) expect(got.stdout).toContain(`"${code}"`);
  });

  it('reports the same text for a schema only ajv can judge, checked on its own', async () => {
    for (const file of ['test/fixtures/invalid/MCPG019-ajv-strict.yaml', 'test/fixtures/invalid/MCPG022-default.yaml', 'specs/everything.yaml']) {
      const expected = await cli(['check', '--no-color', file]);
      expect(bin(['check', '--no-color', file]), file).toEqual(expected);
    }
  });
});
