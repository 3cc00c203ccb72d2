// Precompiled templates kept in the cache folder (src/common/templates.ts): a run with no cache folder
// (compiled as before), the run that compiles and keeps them, the next one that only loads them, and one
// after they were damaged give the same files; the damaged ones are compiled and kept anew.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

/** A full generate of the weather spec into a new folder, from a folder with no node_modules above it. */
function generate(project: string, cacheDir: string | undefined): string {
  const out = join(tempDir('mcpgen-template-out-'), 'out');
  const env: NodeJS.ProcessEnv = { ...process.env, MCPGEN_LAZY_TYPESCRIPT: '0' };
  if (cacheDir === undefined) delete env.MCPGEN_CACHE_DIR;
  else env.MCPGEN_CACHE_DIR = cacheDir;
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', join(ROOT, 'specs/weather.yaml'), '--out', out], { cwd: project, encoding: 'utf8', env });
  expect(r.status, r.stderr).toBe(0);
  const dir = join(out, readdirSync(out)[0]!);
  // The manifest names the output folder, which differs from run to run.
  return readdirSync(dir).filter((f) => !f.startsWith('.')).sort().map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');
}

const kept = (dir: string) => readdirSync(dir).filter((f) => /^template-[0-9a-f]{32}\.cjs$/.test(f)).sort();

describe('precompiled templates in the cache folder', { timeout: 120_000 }, () => {
  it('are kept by the first run, loaded by the next, compiled anew when damaged; the files never change', () => {
    const project = tempDir('mcpgen-template-project-');
    const compiled = generate(project, undefined);
    expect(compiled).toContain('README.md'); // the templates ran: README, banners, package.json, tsconfig
    const cacheDir = tempDir('mcpgen-template-cache-');
    expect(generate(project, cacheDir)).toBe(compiled);
    const names = kept(cacheDir);
    expect(names.length).toBeGreaterThanOrEqual(4);
    const first = join(cacheDir, names[0]!);
    const written = statSync(first).mtimeMs;
    expect(generate(project, cacheDir)).toBe(compiled);
    expect(statSync(first).mtimeMs).toBe(written); // loaded, not written again
    for (const name of names) writeFileSync(join(cacheDir, name), name === names[0] ? 'module.exports = {' : 'module.exports = {};');
    expect(generate(project, cacheDir)).toBe(compiled);
    // The unreadable one, kept anew: a precompiled template (its block programs "0", "1"… come first when it has any).
    expect(readFileSync(first, 'utf8')).toMatch(/^module\.exports = \{(?:"\d+":function[\s\S]*)?"compiler":\[/);
    expect(kept(cacheDir)).toEqual(names);
  });
});
