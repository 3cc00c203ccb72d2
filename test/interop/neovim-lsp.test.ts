// Issue 47: a real editor. Neovim (Debian `neovim`, scripts/system-deps.mjs), headless, opens a spec with
// its built-in LSP client pointed at `mcpgen lsp`, receives the diagnostic, applies its quick fix and
// saves; the file then checks clean with `mcpgen check`. Needs `npm run build` (bin/mcpgen.js).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { writeProject } from '../support/lsp-client.js';

const SPEC = `mcpgen: 1
server:
  name: items
  version: 1.0.0
resources:
  - uri: file:///readme
    name: readme
  - uri: file:///items/{id}
    name: item
    mimeType: application/json
`;

describe('Neovim applies a quick fix from mcpgen lsp (issue 47)', () => {
  it('receives the diagnostic, applies the fix, and the saved spec checks clean', () => {
    const dir = writeProject({ 'specs/items.yaml': SPEC });
    const spec = join(dir, 'specs/items.yaml');
    const out = join(dir, 'nvim-result.txt');
    const env = { ...process.env, SPEC: spec, OUT: out, NODE: process.execPath, MCPGEN: join(ROOT, 'bin/mcpgen.js'), ROOT_DIR: dir };
    const run = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(ROOT, 'test/support/nvim-quick-fix.lua')}`], { cwd: dir, env, timeout: 120_000, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    const result = Object.fromEntries(readFileSync(out, 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]));
    expect(result).toEqual({
      diagnostics: 'true',
      code: 'MCPG024',
      message: 'resource URI "file:///items/{id}" has a {variable}: it is a URI template; declare it under `resourceTemplates:` with `uriTemplate:`',
      action: 'Move to resourceTemplates',
      clean: 'true',
    });
    const item = '    name: item\n    mimeType: application/json\n';
    expect(readFileSync(spec, 'utf8')).toBe(`${SPEC.replace(`  - uri: file:///items/{id}\n${item}`, '')}resourceTemplates:\n  - uriTemplate: file:///items/{id}\n${item}`);
    expect(execFileSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'check', spec], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toBe('');
  });
});
