// Every speed mechanism off (MCPGEN_SPEED_OFF=all, src/common/speed-off.ts) gives the same bytes:
// `generate --check` over the repository's generated/ and over the bench's synthetic specs (10 and
// 1,000 tools), generated first with every mechanism on and its caches warm. The real CLI process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module of the benchmarks, untyped
import { syntheticSpec } from '../../bench/synthetic-spec.mjs';
import { SPEED_MECHANISMS } from '../../src/common/speed-off.js';
import { ROOT, tempDir } from '../helpers.js';

function mcpgen(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('MCPGEN_SPEED_OFF=all', () => {
  it('generated/ is current with every speed mechanism off', () => {
    const r = mcpgen(['generate', '--check'], ROOT, { MCPGEN_CACHE_DIR: join(tempDir(), 'cache'), MCPGEN_SPEED_OFF: 'all' });
    expect(r.out).toContain('generated output is current');
    expect(r.code).toBe(0);
  }, 120_000);

  it('the bench specs generated with every mechanism on (caches warm) are byte-identical to a run with all off', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'specs'));
    const specs = [10, 1000].map((n) => {
      const file = join(dir, 'specs', `synthetic${n}.yaml`);
      writeFileSync(file, (syntheticSpec as (n: number) => string)(n));
      return file;
    });
    const on = { MCPGEN_CACHE_DIR: join(dir, 'cache') };
    // The first run fills the caches (code caches, the TypeScript stand-in's exports); the second uses them.
    expect(mcpgen(['generate', ...specs, '--out', 'warm'], dir, on).code).toBe(0);
    rmSync(join(dir, 'warm'), { recursive: true });
    expect(mcpgen(['generate', ...specs, '--out', 'out'], dir, on).code).toBe(0);
    const off = mcpgen(['generate', ...specs, '--out', 'out', '--check'], dir, { ...on, MCPGEN_SPEED_OFF: 'all' });
    expect(off.out).toContain('generated output is current');
    expect(off.code).toBe(0);
  }, 180_000);

  it('docs/layout.md "Speed mechanisms" names each one', async () => {
    const { readFileSync } = await import('node:fs');
    const layout = readFileSync(join(ROOT, 'docs/layout.md'), 'utf8');
    const section = layout.slice(layout.indexOf('## Speed mechanisms'));
    for (const name of SPEED_MECHANISMS) expect(section, name).toContain(`\`${name}\``);
  });
});
