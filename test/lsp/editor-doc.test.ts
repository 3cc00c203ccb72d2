// docs/editor.md's set-up blocks for editors not on this machine (Neovim ≥ 0.8, Zed, Helix; the interop
// suite drives Neovim 0.7's client itself): each starts the server the way `mcpgen --help` lists it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP } from '../../src/cli/help.js';
import { ROOT } from '../support/root.js';

describe('docs/editor.md (issue 47)', () => {
  const blocks = [...readFileSync(join(ROOT, 'docs/editor.md'), 'utf8').matchAll(/```(lua|toml)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));

  it('every editor set-up runs `mcpgen lsp --stdio`, a command --help lists', () => {
    expect(HELP).toContain('mcpgen lsp [--stdio]');
    expect(blocks.map((b) => b.lang)).toEqual(['lua', 'lua', 'toml', 'toml']);
    for (const b of blocks.filter((x) => x.text.includes('cmd =') || x.text.includes('command ='))) expect(b.text.replace(/["',{}[\]]/g, ' ').replace(/\s+/g, ' ')).toMatch(/npx (?:command = npx )?(?:args = )?mcpgen lsp --stdio/);
    expect(blocks[2]!.text).toContain('languages = ["YAML"]');
  });
});
