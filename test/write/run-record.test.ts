// A `generate` whose inputs and outputs are as its last clean run left them answers from the run record
// (src/write/run-record.ts) without loading ts-morph; anything that could change the output sends it back
// to a full run, and `--check` still sees hand-edited and deleted outputs. Real processes, on a copy of
// the built package so the generator itself can be "upgraded" and edited.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../support/root.js';

const SPEC = `mcpgen: 1
server: { name: shop, version: 1.0.0 }
include: [parts/*.yaml]
tools:
  - name: find_item
    description: Finds an item.
    input: { type: object, properties: { id: { type: string } }, required: [id] }
`;
const PART = (name: string) => `tools:\n  - name: ${name}\n    description: Tool ${name}.\n    input: { type: object, properties: { n: { type: integer } } }\n`;

let pkg: string;
let project: string;
let cache: string;

interface Run {
  readonly status: number | null;
  readonly stderr: string;
  /** The run loaded ts-morph or TypeScript: it emitted (a full run). */
  readonly full: boolean;
  readonly modules: string[];
}

function mcpgen(...args: string[]): Run {
  return mcpgenWith(cache, ...args);
}

function mcpgenWith(cacheDir: string, ...args: string[]): Run {
  const list = join(cache, '..', 'modules.txt');
  rmSync(list, { force: true });
  const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test/support/loaded-modules.mjs'), join(pkg, 'bin/mcpgen.js'), ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, MCPGEN_CACHE_DIR: cacheDir, MCPGEN_LOADED_MODULES_FILE: list, NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  const modules = readFileSync(list, 'utf8').split('\n');
  return { status: r.status, stderr: r.stderr, modules, full: modules.some((m) => /node_modules\/(ts-morph|typescript|@ts-morph)\//.test(m)) };
}

const out = (...p: string[]) => join(project, 'out', 'shop', ...p);

beforeAll(() => {
  // The built package, copied: bin, dist, templates, schema, package.json; dependencies from this repo.
  pkg = tempDir('mcpgen-pkg-');
  for (const part of ['bin', 'dist', 'templates', 'schema', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  project = tempDir('mcpgen-project-');
  cache = join(tempDir('mcpgen-cache-'), 'cache');
  writeFileSync(join(project, 'spec.yaml'), SPEC);
  mkdirSync(join(project, 'parts'));
  writeFileSync(join(project, 'parts/a.yaml'), PART('tool_a'));
});

describe('run record: a current generate loads no emitter', { timeout: 240_000 }, () => {
  it('a second run with nothing changed loads neither ts-morph nor handlebars, and says what a full run says', () => {
    const first = mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(first.status, first.stderr).toBe(0);
    expect(first.full).toBe(true); // the probe sees ts-morph when it is loaded
    const again = mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(again.status, again.stderr).toBe(0);
    expect(again.full).toBe(false);
    expect(again.modules.some((m) => m.includes('/handlebars/'))).toBe(false);
    expect(again.stderr).toContain('1 spec file checked: 0 errors, 0 warnings');
    expect(again.stderr).toMatch(/wrote 0 file\(s\), \d+ unchanged, 1 scaffold file\(s\) kept, 0 removed/);
    const check = mcpgen('generate', 'spec.yaml', '--out', 'out', '--check');
    expect(check.status, check.stderr).toBe(0);
    expect(check.full).toBe(false);
    expect(check.stderr).toContain('generated output is current');
  });

  it('a spec edit, an included file edit and a new file matching an include glob each mean a full run with the new output', () => {
    mcpgen('generate', 'spec.yaml', '--out', 'out');
    writeFileSync(join(project, 'spec.yaml'), SPEC.replace('Finds an item.', 'Finds one item by id.'));
    const edited = mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(edited.full).toBe(true);
    expect(readFileSync(out('definition.ts'), 'utf8')).toContain('Finds one item by id.');
    writeFileSync(join(project, 'parts/a.yaml'), PART('tool_a').replace('Tool tool_a.', 'Tool A, edited.'));
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(true);
    expect(readFileSync(out('definition.ts'), 'utf8')).toContain('Tool A, edited.');
    writeFileSync(join(project, 'parts/b.yaml'), PART('tool_b'));
    const added = mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(added.full).toBe(true);
    expect(readFileSync(out('definition.ts'), 'utf8')).toContain('tool_b');
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(false);
  });

  it('an edited MCP Apps view, a skill file added or changed, each mean a full run with the new output', () => {
    const dir = tempDir('mcpgen-embedded-');
    mkdirSync(join(dir, 'skills/notes'), { recursive: true });
    writeFileSync(join(dir, 'skills/notes/SKILL.md'), '---\nname: notes\ndescription: Taking notes.\n---\n# Notes\n');
    writeFileSync(join(dir, 'view.html'), '<!doctype html><p>one</p>\n');
    writeFileSync(
      join(dir, 'spec.yaml'),
      `mcpgen: 1\nserver: { name: emb, version: 1.0.0 }\nskills: skills\napps:\n  - { uri: "ui://emb/view", name: view, html: view.html }\ntools:\n  - name: show\n    description: Shows.\n    ui: ui://emb/view\n`,
    );
    const run = (...args: string[]) => {
      rmSync(join(dir, 'modules.txt'), { force: true });
      const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test/support/loaded-modules.mjs'), join(pkg, 'bin/mcpgen.js'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        // The file's cache folder, filled by the tests before: records are keyed by project folder, so this
        // project's first run is a full one all the same, without loading TypeScript cold.
        env: { ...process.env, MCPGEN_CACHE_DIR: cache, MCPGEN_LOADED_MODULES_FILE: join(dir, 'modules.txt'), NODE_DISABLE_COMPILE_CACHE: '1' },
      });
      return { status: r.status, stderr: r.stderr, full: readFileSync(join(dir, 'modules.txt'), 'utf8').includes('/ts-morph/') };
    };
    const text = (file: string) => readFileSync(join(dir, 'out/emb', file), 'utf8');
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: true });
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: false });
    writeFileSync(join(dir, 'view.html'), '<!doctype html><p>two</p>\n');
    expect(run('generate', 'spec.yaml', '--out', 'out', '--check')).toMatchObject({ status: 1, full: true });
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: true });
    expect(text('definition.ts')).toContain('two');
    writeFileSync(join(dir, 'skills/notes/extra.txt'), 'more\n');
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: true });
    expect(text('skills.ts')).toContain('extra.txt');
    writeFileSync(join(dir, 'skills/notes/extra.txt'), 'changed\n');
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: true });
    expect(text('skills.ts')).toContain('changed');
    expect(run('generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: false });
    rmSync(dir, { recursive: true, force: true });
  });

  it('another output folder is another key: a full run there, and each stays current on its own', () => {
    mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out2').full).toBe(true);
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out2').full).toBe(false);
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(false);
  });

  it('a hand-edited or deleted output is stale for --check (named) and rewritten by generate', () => {
    mcpgen('generate', 'spec.yaml', '--out', 'out');
    const pristine = readFileSync(out('server.ts'), 'utf8');
    writeFileSync(out('server.ts'), `${pristine}// edited\n`);
    const edited = mcpgen('generate', 'spec.yaml', '--out', 'out', '--check');
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain('out/shop/server.ts (changed)');
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').status).toBe(0);
    expect(readFileSync(out('server.ts'), 'utf8')).toBe(pristine);

    unlinkSync(out('types.ts'));
    unlinkSync(out('.mcpgen-manifest.json'));
    const deleted = mcpgen('generate', 'spec.yaml', '--out', 'out', '--check');
    expect(deleted.status).toBe(1);
    expect(deleted.stderr).toContain('out/shop/types.ts (missing)');
    expect(deleted.stderr).toContain('out/shop/.mcpgen-manifest.json (missing)');
    mcpgen('generate', 'spec.yaml', '--out', 'out');
    unlinkSync(out('handlers.ts')); // the scaffold: written again when missing
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(true);
    expect(readdirSync(out())).toContain('handlers.ts');
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out', '--check')).toMatchObject({ status: 0, full: false });
  });

  it('a new mcpgen version, an edited template, or an unreadable record each mean a full run', () => {
    mcpgen('generate', 'spec.yaml', '--out', 'out');
    const packageJson = readFileSync(join(pkg, 'package.json'), 'utf8');
    writeFileSync(join(pkg, 'package.json'), packageJson.replace('"version": "0.1.0"', '"version": "0.1.1"'));
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(true);
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(false);
    writeFileSync(join(pkg, 'package.json'), packageJson);

    const template = readdirSync(join(pkg, 'templates')).find((f) => f.endsWith('.hbs'))!;
    writeFileSync(join(pkg, 'templates', template), `${readFileSync(join(pkg, 'templates', template), 'utf8')}\n`);
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(true);
    expect(mcpgen('generate', 'spec.yaml', '--out', 'out').full).toBe(false);

    for (const f of readdirSync(cache)) writeFileSync(join(cache, f), '{ not json');
    const broken = mcpgen('generate', 'spec.yaml', '--out', 'out');
    expect(broken).toMatchObject({ status: 0, full: true });

    // A cache that cannot be written (a file where its folder belongs): every run is a full one, none fails.
    const blocked = join(cache, '..', 'not-a-folder');
    writeFileSync(blocked, 'x');
    for (let i = 0; i < 2; i++) expect(mcpgenWith(blocked, 'generate', 'spec.yaml', '--out', 'out')).toMatchObject({ status: 0, full: true });
  });
});
