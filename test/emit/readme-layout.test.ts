// Issue 24 items 1 and 6: the generated README describes the layout actually written (handlers file where
// the config put it; no package build without package files), and index.ts is the server side only.
import { describe, expect, it } from 'vitest';
import { emitServerPackage } from '../../src/emit/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkText, ROOT } from '../helpers.js';

const weather = () => checkText(readFileSync(join(ROOT, 'specs/weather.yaml'), 'utf8')).models[0]!;

describe('generated README and index', () => {
  it('names the configured handlers file and no package build with packageFiles: false', () => {
    const model = weather();
    const files = emitServerPackage(model, { packageFiles: false, handlersModule: '../../src/mcp/weather.handlers.js' });
    const readme = files.find((f) => f.path === 'README.md')!.content;
    expect(readme).toContain('Implement\n`../../src/mcp/weather.handlers.ts`');
    expect(readme).not.toContain('`handlers.ts`');
    expect(readme).not.toContain('npx tsc -p');
    expect(readme).not.toContain('dist/main.js');
    expect(readme).toContain('`packageFiles: false`');
    expect(readme).toContain('node <build>/main.js');
  });

  it('with package files: npm run build and dist/main.js; index.ts re-exports no client', () => {
    const model = weather();
    const files = emitServerPackage(model);
    const readme = files.find((f) => f.path === 'README.md')!.content;
    expect(readme).toContain('`npm run build`');
    expect(readme).toContain('node dist/main.js');
    const index = files.find((f) => f.path === 'index.ts')!.content;
    expect(index).not.toContain('client.js');
    expect(index).not.toContain('openai.js');
    expect(index).not.toContain('anthropic.js');
    expect(index).not.toContain('gemini.js');
    const pkg = JSON.parse(files.find((f) => f.path === 'package.json')!.content) as { exports: Record<string, { default: string }> };
    expect(pkg.exports['.']!.default).toBe('./dist/index.js');
    expect(pkg.exports['./client']!.default).toBe('./dist/client.js');
    expect(pkg.exports['./openai']!.default).toBe('./dist/openai.js');
    expect(pkg.exports['./anthropic']!.default).toBe('./dist/anthropic.js');
    expect(pkg.exports['./gemini']!.default).toBe('./dist/gemini.js');
  });
});

describe('generated README: toolset marks', () => {
  const spec = (discovery: string) => `mcpgen: 1
server: { name: hub, version: 1.0.0 }
tools:
  - name: list_issues
  - name: list_repos
  - name: list_users
toolsets:
  issues: { description: Issues, default: true, tools: [list_issues] }
  repos: { description: Repositories, tools: [list_repos] }
  users: { tools: [list_users] }
${discovery}`;
  const readmeOf = (text: string) => {
    const checked = checkText(text);
    expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    return emitServerPackage(checked.models[0]!).find((f) => f.path === 'README.md')!.content;
  };

  it('without discovery: the default toolsets are marked (default)', () => {
    const readme = readmeOf(spec(''));
    expect(readme).toContain('- `issues` (default) — Issues: `list_issues`\n');
    expect(readme).toContain('- `repos` — Repositories: `list_repos`\n');
    expect(readme).not.toContain('(initial)');
  });

  it('with discovery: the initial set is marked (initial), and no toolset (default), since every one can be enabled', () => {
    const readme = readmeOf(spec('discovery:\n  initial: [repos]\n'));
    expect(readme).toContain('- `issues` — Issues: `list_issues`\n');
    expect(readme).toContain('- `repos` (initial) — Repositories: `list_repos`\n');
    expect(readme).toContain('- `users`: `list_users`\n');
    expect(readme).not.toContain('(default)');
    // Without `initial`, the initial set is the toolsets marked default: marked as such.
    expect(readmeOf(spec('discovery: {}\n'))).toContain('- `issues` (initial) — Issues: `list_issues`\n');
  });
});
