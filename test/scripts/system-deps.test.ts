// Issue 24 item 8: README's test command on a machine without Chromium (or nginx, Redis) must install the
// Debian packages when root or say exactly what is missing in one line, never end in a raw Playwright
// error; and .ci/run must run exactly README's command (no install step of its own that README lacks).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('runs first in npm run test:interop, and --check on this machine (all installed) exits 0 without installing', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:interop']).toMatch(/^node scripts\/system-deps\.mjs && /);
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/system-deps.mjs'), '--check'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
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
