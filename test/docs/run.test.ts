// Issue 26: every command and code block in README and docs/ is run by a test. docs.test.ts checks each
// block (links, --help entries, schemas, TypeScript); this file runs them: every ```sh line of the pages
// in PAGES, in order, in one work folder (init, generate, tsc, the servers, import mcp, import openapi,
// check), each exiting 0 and leaving what the page says (a tsc line over sources an earlier one compiled,
// unchanged since, has that one's outcome: run-line.ts); the lines it cannot run here are in NOT_RUN
// with the reason and the test that runs them instead. Every YAML spec and config block goes through
// `mcpgen check` (a config: `check` and `breaking` with it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers.js';
import { type Block, pages, parse } from './markdown.js';
import { commands, type Outcome, runOrReuse, type Session, startServer } from './run-line.js';
import { helpEntries } from './shell.js';
import { LspClient } from '../support/lsp-client.js';
import { KEEPS, NOT_RUN, PAGES, SERVER_URLS, SETUP, WRITES, YAML_REST, YAML_SIDE_FILES } from './run-plan.js';

const WORK = join(ROOT, '.tmp/docs-run');
const BLOCKS = pages().flatMap((p) => parse(p).blocks);
const SH = BLOCKS.filter((b) => b.lang === 'sh');
const lineText = (l: string): string => l.replace(/(^|\s)#.*$/, '').trim();
const linesOf = (b: Block): string[] => b.text.split('\n').map(lineText).filter((l) => l !== '');
const longest = <T>(table: Record<string, T>, line: string): T | undefined =>
  Object.keys(table).filter((k) => line.startsWith(k)).sort((a, b) => b.length - a.length).map((k) => table[k]!)[0];
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The mcpgen commands this file ran (`import openapi` as two words), for the synopsis test at the end. */
const ran = new Set<string>();
const noteCommand = (argv: readonly string[]): void => {
  const at = argv.indexOf('mcpgen');
  if (at >= 0 && argv[at + 1] !== undefined) ran.add(argv[at + 1] === 'import' ? `import ${argv[at + 2]}` : argv[at + 1]!);
};
const mcpgen = async (argv: string[], cwd: string) => {
  noteCommand(['mcpgen', ...argv]);
  return cli(argv, cwd);
};

const session: Session = {
  cwd: WORK,
  servers: [],
  urls: new Map(),
  substitute: (word) => (SERVER_URLS[word] !== undefined ? session.urls.get(SERVER_URLS[word]!) ?? word : word),
};

beforeAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
});
afterAll(() => {
  for (const s of session.servers) s.kill('SIGKILL');
});

/** One line as the page has it: each command in turn; a server is started and probed. */
async function runLine(line: string): Promise<Outcome> {
  let last: Outcome = { code: 0, output: '' };
  for (const { env, argv } of commands(line)) {
    noteCommand(argv);
    last = argv[0] === 'node' && /^generated\/[^/]+\/dist\/main\.js$/.test(argv[1] ?? '') ? await startServer(session, line, argv, env) : await runOrReuse(session, argv, env);
    if (last.code !== 0) return last;
  }
  return last;
}

describe('shell lines of README and docs/, run', () => {
  it('every line is run below or listed in NOT_RUN, and every NOT_RUN entry is a line', () => {
    const all = SH.flatMap((b) => linesOf(b).map((l) => ({ page: b.page, l })));
    expect(all.filter(({ page, l }) => NOT_RUN[l] === undefined && !PAGES.includes(page)).map(({ page, l }) => `${page}: ${l}`)).toEqual([]);
    expect(Object.keys(NOT_RUN).filter((k) => !all.some(({ l }) => l === k))).toEqual([]);
    expect(readFileSync(join(ROOT, 'scripts/test.mjs'), 'utf8')).toMatch(/run\(\[join\(root, 'bin\/mcpgen.js'\), 'generate', '--check'\]\)/); // NOT_RUN's claim
  });

  it('every block is valid shell (bash -n)', () => {
    for (const b of SH) expect(spawnSync('bash', ['-n'], { input: b.text, encoding: 'utf8' }).stderr, `${b.page}:${b.line}`).toBe('');
    expect(spawnSync('bash', ['-n', join(ROOT, 'deploy/run-inventory.sh')], { encoding: 'utf8' }).status).toBe(0);
  });

  it.each(PAGES)('%s: each line exits 0 and leaves what the page says', async (page) => {
    SETUP[page]?.(WORK);
    for (const line of SH.filter((b) => b.page === page).flatMap(linesOf)) {
      if (NOT_RUN[line] !== undefined) continue;
      const kept = (longest(KEEPS, line) ?? []).map((f) => [f, sha(join(WORK, f))] as const);
      const outcome = await runLine(line);
      expect(outcome.code, `${page}: ${line}\n${outcome.output}`).toBe(0);
      for (const f of longest(WRITES, line) ?? []) expect(existsSync(join(WORK, f)), `${line} writes ${f}`).toBe(true);
      for (const [f, hash] of kept) expect(sha(join(WORK, f)), `${line} keeps ${f}`).toBe(hash);
    }
  }, 300_000); // two tsc runs are most of it: ~6 s of CPU each, minutes of wall time on a loaded 2-core machine
});

describe('YAML blocks of docs/, through mcpgen', () => {
  const yaml = BLOCKS.filter((b) => b.lang === 'yaml' && !b.text.startsWith('# Kubernetes manifest')); // another tool's file: docs.test.ts parses it
  const isConfig = (b: Block): boolean => b.text.startsWith('# mcpgen.config.yaml') || 'specs' in (parseYaml(b.text) as object);

  /** A folder holding the block as a spec (a fragment: with the header and YAML_REST) and the files it names. */
  function specFolder(b: Block): string {
    const dir = join(WORK, 'yaml', `${b.page.replace(/\W/g, '-')}-${b.line}`);
    mkdirSync(dir, { recursive: true });
    const whole = 'mcpgen' in (parseYaml(b.text) as object);
    const text = whole ? b.text : ['mcpgen: 1', 'server: { name: docs, version: 1.0.0 }', b.text, YAML_REST[b.page] ?? ''].join('\n');
    writeFileSync(join(dir, 'spec.yaml'), `${text}\n`);
    for (const [path, side] of Object.entries(YAML_SIDE_FILES[b.page] ?? {})) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      if ('copy' in side) cpSync(join(ROOT, side.copy), join(dir, path), { recursive: true });
      else writeFileSync(join(dir, path), side.text);
    }
    return dir;
  }

  it.each(yaml.filter((b) => !isConfig(b)).map((b) => [`${b.page}:${b.line}`, b] as const))('%s: mcpgen check passes', async (_, b) => {
    const dir = specFolder(b);
    const r = await mcpgen(['check', 'spec.yaml'], dir);
    expect(`${r.code} ${r.stderr}`).toMatch(/^0 /);
  });

  it.each(yaml.filter(isConfig).map((b) => [`${b.page}:${b.line}`, b] as const))('%s: check, breaking and diff run with it as the config', async (_, b) => {
    const dir = join(WORK, 'yaml', `${b.page.replace(/\W/g, '-')}-${b.line}`);
    mkdirSync(join(dir, 'specs'), { recursive: true });
    writeFileSync(join(dir, 'mcpgen.config.yaml'), `${b.text}\n`);
    cpSync(join(ROOT, 'specs/weather.yaml'), join(dir, 'specs/weather.yaml'));
    for (const argv of [['check'], ['breaking', '--base', 'specs/weather.yaml'], ['diff', '--base', 'specs/weather.yaml', '--format', 'markdown']]) {
      const r = await mcpgen(argv, dir);
      expect(`${r.code} ${r.stderr}`, argv.join(' ')).toMatch(/^0 /);
    }
  });

  it('every side file and YAML_REST entry is for a page with a YAML block', () => {
    for (const page of [...Object.keys(YAML_SIDE_FILES), ...Object.keys(YAML_REST)]) expect(yaml.some((b) => b.page === page), page).toBe(true);
  });
});

describe('the command synopses (docs/cli.md, docs/breaking-changes.md)', () => {
  it('mcpgen lsp --stdio (docs/editor.md: editors start it) answers initialize and exits 0 on shutdown/exit', async () => {
    noteCommand(['mcpgen', 'lsp', '--stdio']);
    const lsp = new LspClient(WORK);
    expect(((await lsp.initialize()) as { serverInfo?: { name?: string } }).serverInfo?.name).toBe('mcpgen');
    expect(await lsp.close()).toBe(0);
  });

  it('mcpgen test (docs/testing.md) compares a running server\'s lists with its spec and exits 0 when they match', async () => {
    const server = ['--', process.execPath, join(ROOT, 'test/support/defect-server.mjs'), 'weather'];
    const r = await mcpgen(['test', join(ROOT, 'specs/weather.yaml'), '--exclude', '*', '--reporter', 'json', ...server], WORK);
    expect(`${r.code} ${r.stderr}`).toMatch(/^0 /);
    expect((JSON.parse(r.stdout) as { cases: unknown[] }).cases.length).toBeGreaterThan(0);
  });

  it('--help and --version exit 0, and every command --help lists was run by a test above', async () => {
    const help = await mcpgen(['--help'], WORK);
    expect(help.code).toBe(0);
    expect((await mcpgen(['--version'], WORK)).code).toBe(0);
    expect([...helpEntries(help.stdout).keys()].filter((c) => !ran.has(c))).toEqual([]);
  });
});
