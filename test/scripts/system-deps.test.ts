// Issue 24 item 8: README's test command on a machine without Chromium (or nginx, Redis) must install the
// Debian packages when root or say exactly what is missing in one line, never end in a raw Playwright
// error; and .ci/run must run exactly README's command (no install step of its own that README lacks). On a
// fresh machine README's command runs npm test before the interop suite installs them: npm test needs none.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles } from '../support/import-graph.js';
import { ROOT } from '../support/root.js';

interface SystemDeps {
  SYSTEM_PACKAGES: { program: string; debian: string; paths: string[] }[];
  missingPackages(exists?: (path: string) => boolean): string[];
  missingMessage(missing: string[]): string;
}
const deps = (await import(join(ROOT, 'scripts/system-deps.mjs'))) as SystemDeps;

describe('the interop suite\'s Debian packages', () => {
  it('names chromium and the apt-get line, in one line, when chromium is at none of the paths the tests use', () => {
    const chromium = deps.SYSTEM_PACKAGES.find((p) => p.program === 'chromium')!;
    // apps-browser.test.ts launches this very path.
    expect(readFileSync(join(ROOT, 'test/interop/apps-browser.test.ts'), 'utf8')).toContain(`'${chromium.paths[0]}'`);
    const missing = deps.missingPackages((path) => !chromium.paths.includes(path));
    expect(missing).toEqual(['chromium']);
    const line = deps.missingMessage(missing);
    expect(line).not.toContain('\n');
    expect(line).toContain('chromium');
    expect(line).toMatch(/sudo apt-get install -y chromium$/);
  });

  it('lists every missing package by its Debian name (nginx is nginx-light)', () => {
    const missing = deps.missingPackages(() => false);
    expect(missing).toEqual(['nginx-light', 'redis-server', 'redis-sentinel', 'redis-tools', 'chromium', 'neovim']);
    expect(deps.missingMessage(missing)).toMatch(/sudo apt-get install -y nginx-light redis-server redis-sentinel redis-tools chromium neovim$/);
    expect(deps.missingPackages(() => true)).toEqual([]);
  });

  it('runs first in npm run test:interop; --check says what this machine lacks (or nothing) and installs nothing', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:interop']).toMatch(/^node scripts\/system-deps\.mjs && /);
    // npm test runs before the interop suite installs anything (README's command on a fresh machine): the
    // verdict is the same whether the packages are there or not.
    const missing = deps.missingPackages();
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/system-deps.mjs'), '--check'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual(missing.length === 0 ? [0, ''] : [1, `${deps.missingMessage(missing)}\n`]);
    expect(deps.missingPackages()).toEqual(missing);
  });

  it('npm test starts none of them: no unit test file reaches a test module that starts nginx, Redis, Chromium or Neovim', () => {
    // test/ without the installed packages of test/import-servers/ (the interop suite's published servers).
    const dirs = readdirSync(join(ROOT, 'test'), { withFileTypes: true }).filter((d) => d.isDirectory() && !existsSync(join(ROOT, 'test', d.name, 'node_modules')));
    const files = ['test/helpers.ts', ...dirs.flatMap((d) => sourceFiles(ROOT, `test/${d.name}`))];
    const graph = importGraph(ROOT, files);
    // A module starts a program when it names one of the paths system-deps.mjs checks, or the program by name.
    const programs = deps.SYSTEM_PACKAGES.flatMap((p) => [p.program, ...p.paths]).map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    const names = new RegExp(`['"](?:${programs.join('|')})['"]`);
    const starters = new Set(files.filter((f) => !f.endsWith('.test.ts') && names.test(readFileSync(join(ROOT, f), 'utf8'))));
    expect([...starters].sort()).toEqual(expect.arrayContaining(['test/support/nginx.ts', 'test/support/redis.ts']));
    const reaches = (file: string, seen = new Set<string>()): string | undefined => {
      for (const next of graph.get(file) ?? []) {
        if (starters.has(next)) return next;
        if (seen.has(next)) continue;
        seen.add(next);
        const found = reaches(next, seen);
        if (found !== undefined) return `${next} → ${found}`;
      }
      return undefined;
    };
    const unit = files.filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/interop/') && !f.startsWith('test/soak/'));
    expect(unit.length).toBeGreaterThan(150);
    expect(unit.flatMap((f) => { const via = reaches(f); return via === undefined ? [] : [`${f} → ${via}`]; })).toEqual([]);
  });

  it('.ci/run runs exactly README\'s test command (then npm test on more Nodes) and installs no Debian package itself', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /^## Set-up \(two commands\)\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)![1]!.trim().split('\n');
    const testCommand = block[1]!.replace(/\s+#.*$/, '');
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(ci).toContain(testCommand);
    expect(ci.join('\n')).not.toMatch(/apt-get/);
  });
});
