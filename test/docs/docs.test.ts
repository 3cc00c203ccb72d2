// README.md and docs/ (issue 26): every relative link resolves (file and heading), every docs page is
// reachable from README, and every fenced block is checked — here (shell commands, spec and config
// YAML against their schemas, the command synopsis against `mcpgen --help`, TypeScript compiled against
// generated/) or by the test named for it in CHECKED_ELSEWHERE. A block nothing checks fails the test.
// run.test.ts runs them: the shell lines, the YAML through mcpgen check, every command of the synopses.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { createProgram } from '../support/compiler-host.js';
import { anchors, type Block, links, pages, parse } from './markdown.js';
import { checkShellLine, helpEntries, madeNames } from './shell.js';

/** Blocks another test reads and runs or compiles, by page and first line. */
const CHECKED_ELSEWHERE: Record<string, string> = {
  'docs/generated-code.md import { createSqlServer }': 'test/emit/compile.test.ts compiles it',
  'docs/authorization.md import { authorizationCode,': 'test/e2e/client-auth.test.ts compiles it',
  'docs/cli.md test/fixtures/invalid/MCPG014-header-duplicate.yaml:11:45': 'test/cli/cli.test.ts compares it with the real output',
  'docs/operations.md {"time":': 'test/e2e/telemetry.test.ts reads the access log lines (MCPGEN_ACCESS_LOG=json) of a served process',
  'docs/operations.md { "PORT": 8080': 'test/e2e/config-file.test.ts serves main.js --config with a file of such settings (and refuses unknown keys)',
  'docs/operations.md $ MCPGEN_AUTH_ISSUERS=': 'test/e2e/operations.test.ts compares the refusal line and exit code of the generated main',
  "docs/editor.md vim.lsp.config('mcpgen', {": 'test/lsp/editor-doc.test.ts checks the command (test/interop/neovim-lsp.test.ts drives Neovim 0.7 itself)',
  "docs/editor.md vim.api.nvim_create_autocmd('FileType', {": 'test/lsp/editor-doc.test.ts checks the command',
  'docs/editor.md [language_servers.mcpgen]': 'test/lsp/editor-doc.test.ts checks the language',
  'docs/editor.md [language-server.mcpgen]': 'test/lsp/editor-doc.test.ts checks the command',
};

/** TypeScript blocks compiled here, with what the page leaves to the reader's program declared first. */
const PRELUDES: Record<string, string> = {
  'docs/authorization.md import { createSecureNotesServer }': '',
  'docs/openapi.md import { httpProxy': '',
  'docs/generated-code.md import OpenAI from': "import { WeatherClient } from './generated/weather/client.js';\ndeclare const openai: OpenAI; declare const model: string; declare const client: WeatherClient;\n",
  'docs/providers.md import type { Content }': "import type { GoogleGenAI } from '@google/genai';\nimport { WeatherClient } from './generated/weather/client.js';\ndeclare const ai: GoogleGenAI; declare const model: string; declare const client: WeatherClient;\n",
  'docs/providers.md import type { MessageParam }': "import type Anthropic from '@anthropic-ai/sdk';\nimport { WeatherClient } from './generated/weather/client.js';\ndeclare const anthropic: Anthropic; declare const model: string; declare const client: WeatherClient;\n",
  'docs/tasks.md const jobs =': "import { JobsClient } from './generated/jobs/client.js';\ndeclare const url: string;\n",
  'docs/tasks.md const started =': "import { JobsClient } from './generated/jobs/client.js';\ndeclare const jobs: JobsClient;\n",
};

const ALL = pages();
const BLOCKS = ALL.flatMap((p) => parse(p).blocks);
const key = (b: Block): string => `${b.page} ${b.text.split('\n')[0]!.trim()}`;
const findKey = (b: Block, table: Record<string, string>): string | undefined => Object.keys(table).find((k) => key(b).startsWith(k));
const help = spawnSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), '--help'], { encoding: 'utf8' }).stdout;

describe('links in README and docs/', () => {
  it.each(ALL)('%s: every relative link names a file that exists, and a heading there', (page) => {
    const broken: string[] = [];
    for (const { line, target } of links(page)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), decodeURIComponent(path)));
      if (file.startsWith('..') || !existsSync(join(ROOT, file))) broken.push(`${page}:${line}: ${target} (no ${file})`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${file})`);
    }
    expect(broken).toEqual([]);
  });

  it('README links every docs page', () => {
    const linked = new Set(links('README.md').map((l) => l.target.split('#')[0]));
    expect(ALL.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });

  it('the checker catches a broken link and a broken anchor', () => {
    const dir = join(ROOT, '.tmp/docs-test');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'x.md'), '# Title\n\n[a](missing.md) [b](#title) [c](#nope) `[d](ignored.md)`\n');
    expect(links('.tmp/docs-test/x.md').map((l) => l.target)).toEqual(['missing.md', '#title', '#nope']);
    expect(anchors('.tmp/docs-test/x.md')).toEqual(new Set(['title']));
  });
});

describe('README set-up', () => {
  it('keeps the two set-up commands: generate on the bundled specs, and the tests .ci/run runs', () => {
    const first = parse('README.md').blocks[0]!;
    expect(first.text.split('\n').map((l) => l.replace(/\s+#.*$/, ''))).toEqual([
      'npm ci && npm run build && npx mcpgen generate',
      'npm ci && npm test && npm run test:interop',
    ]);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toContain('npm ci && npm test && npm run test:interop');
    expect((parseYaml(readFileSync(join(ROOT, 'mcpgen.config.yaml'), 'utf8')) as { specs: string[] }).specs).toContain('specs/*.yaml');
  });

  // Issue 51: a newcomer knows before running them how long the commands take and what needs root.
  it('gives each set-up command its expected time, says what needs root before them, and docs/install.md times them on a fresh clone', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const line of parse('README.md').blocks[0]!.text.split('\n')) expect(line, 'an expected time in its comment').toMatch(/#\s*≈ \d+ min\b/);
    const before = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('```sh'));
    expect(before).toMatch(/\broot\b/);
    for (const p of ['nginx-light', 'redis-server', 'chromium']) expect(before).toContain(p);
    const timed = /^## Set-up, timed on a fresh clone\n([\s\S]*?)^## /m.exec(readFileSync(join(ROOT, 'docs/install.md'), 'utf8'))?.[1] ?? '';
    expect(timed).toMatch(/`npm ci && npm run build && npx mcpgen generate` \| \d+ min/);
    expect(timed).toMatch(/`npm ci && npm test` .*\| \d+ min/);
  });
});

describe('code blocks in README and docs/', () => {
  it('each one is checked here or by a named test', () => {
    const unchecked = BLOCKS.filter((b) => findKey(b, CHECKED_ELSEWHERE) === undefined && !checkedHere(b)).map((b) => `${b.page}:${b.line} (${b.lang || 'text'})`);
    expect(unchecked).toEqual([]);
  });

  it('every table entry still names a block', () => {
    for (const k of [...Object.keys(CHECKED_ELSEWHERE), ...Object.keys(PRELUDES)]) expect(BLOCKS.some((b) => key(b).startsWith(k)), k).toBe(true);
  });

  it.each(BLOCKS.filter((b) => b.lang === 'sh').map((b) => [`${b.page}:${b.line}`, b] as const))('%s: shell commands exist with the options given', (_, block) => {
    const made = madeNames(BLOCKS.filter((b) => b.page === block.page && b.lang === 'sh').flatMap((b) => b.text.split('\n')));
    const lines = block.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    expect(lines.flatMap((l) => checkShellLine(l, { help, made }))).toEqual([]);
  });

  it('the shell checker refuses an unknown command, script, option or entry flag', () => {
    const ctx = { help, made: new Set(['hello']) };
    expect(checkShellLine('npx mcpgen generat', ctx)).toEqual(['mcpgen generat: no such command in mcpgen --help']);
    expect(checkShellLine('npx mcpgen generate --chek', ctx)).toEqual(['mcpgen generate: option --chek is not in its mcpgen --help entry']);
    expect(checkShellLine('npm run tests', ctx)).toEqual(['npm run tests: no such script in package.json']);
    expect(checkShellLine('node generated/hello/dist/main.js --htp', ctx)).toHaveLength(1);
    expect(checkShellLine('npm install @mcpgen/runtime@9.9.9', ctx)).toHaveLength(1);
    expect(checkShellLine('curl x', ctx)).toEqual(['no check knows the command "curl x"']);
  });

  it('YAML blocks are valid specs, spec fragments or configs by the published schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const spec = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema/mcpgen.schema.json'), 'utf8')));
    const config = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema/mcpgen.config.schema.json'), 'utf8')));
    const problems: string[] = [];
    for (const b of BLOCKS.filter((x) => x.lang === 'yaml')) {
      const value = parseYaml(b.text) as Record<string, unknown>;
      if (b.text.startsWith('# Kubernetes manifest')) continue; // another tool's file: parsed (above), not a spec
      const isConfig = 'specs' in value || b.text.startsWith('# mcpgen.config.yaml');
      const validate = isConfig ? config : spec;
      const whole = isConfig || 'mcpgen' in value ? value : { mcpgen: 1, server: { name: 'docs', version: '1.0.0' }, ...value };
      if (!validate(whole)) problems.push(`${b.page}:${b.line}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
  });

  it('the command synopses list every command of mcpgen --help, with options it has', () => {
    const entries = helpEntries(help);
    const synopses = BLOCKS.filter((b) => b.lang === '' && b.text.startsWith('mcpgen '));
    const listed = new Set<string>();
    const problems: string[] = [];
    for (const line of synopses.flatMap((b) => b.text.split('\n'))) {
      const name = [...entries.keys()].filter((n) => line.startsWith(`mcpgen ${n} `) || line.trim() === `mcpgen ${n}`).sort((a, b) => b.length - a.length)[0];
      if (name === undefined) {
        if (!line.startsWith('mcpgen --help')) problems.push(`no such command: ${line}`);
        continue;
      }
      listed.add(name);
      for (const f of line.match(/--[a-z-]+/g) ?? []) if (!entries.get(name)!.includes(f) && !['--format', '--config', '--color', '--no-color'].includes(f)) problems.push(`${name}: ${f}`);
    }
    expect(problems).toEqual([]);
    expect([...entries.keys()].filter((n) => !listed.has(n))).toEqual([]);
  });

  it('the layout names folders and files that exist', () => {
    const tree = BLOCKS.find((b) => b.page === 'docs/layout.md')!.text;
    const named = tree.split('\n').map((l) => /^([\w./-]+\/?)\s/.exec(l)?.[1] ?? /^ {2}([\w.-]+\/?)\s/.exec(l)?.[1]).filter((x) => x !== undefined);
    expect(named.length).toBeGreaterThan(15);
    const missing = named.filter((n) => !existsSync(join(ROOT, n)) && !existsSync(join(ROOT, 'src', n)));
    expect(missing).toEqual([]);
  });

  it('the SKILL.md example has the frontmatter MCPG096 asks for', () => {
    const md = BLOCKS.find((b) => b.lang === 'markdown')!.text;
    const front = parseYaml(/^---\n([\s\S]*?)\n---/.exec(md)![1]!) as { name: string; description: string };
    expect(front.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(front.description.length).toBeGreaterThan(0);
  });

  it('TypeScript blocks typecheck against generated/ and the runtime', () => {
    const dir = join(ROOT, '.tmp/docs-test');
    mkdirSync(dir, { recursive: true });
    const files = BLOCKS.filter((b) => b.lang === 'ts' && findKey(b, PRELUDES) !== undefined).map((b, i) => {
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, `${PRELUDES[findKey(b, PRELUDES)!]}${b.text}\nexport {};\n`.replaceAll("'./generated/", "'../../generated/"));
      return file;
    });
    expect(files).toHaveLength(Object.keys(PRELUDES).length);
    // On the shared compiler host: the lib, @types/node and runtime declarations another file of this worker parsed are not parsed again.
    const program = createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'],
      strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });
});

/** The kinds of block the tests above check. */
function checkedHere(b: Block): boolean {
  if (b.lang === 'sh' || b.lang === 'yaml' || b.lang === 'markdown') return true;
  if (b.lang === 'ts') return findKey(b, PRELUDES) !== undefined;
  // A package.json excerpt (docs/testing.md): it must at least be JSON a reader can paste.
  if (b.lang === 'json' && b.page === 'docs/testing.md') return JSON.parse(b.text) !== undefined;
  if (b.lang === '') return b.text.startsWith('mcpgen ') || (b.page === 'docs/layout.md' && b.text.startsWith('src/'));
  return false;
}
