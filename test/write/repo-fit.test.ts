// Fitting an existing repository: the handlers file where the repo wants it (written once, kept across
// runs and `out` changes), no package files when the repo compiles generated code itself, no rewrite
// for an edit that changes nothing generated, one clear error when two specs would write one folder,
// and `--check --format json` carrying the stale files.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers.js';
import { STRICT_COMPILER_OPTIONS } from '../support/strict-compiler.js';
import { project } from './support.js';

const config = (extra: string) => `specs:\n  - specs/*.yaml\nout: generated\n${extra}`;

/** Every file under `dir` → `inode:mtimeMs`: what a run that rewrites nothing must leave identical. */
function stamps(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else out[abs] = `${st.ino}:${st.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** Type-check files with the strict flags generated code promises (resolving @mcpgen/runtime from the repo). */
function typeErrors(files: readonly string[]): string[] {
  const program = ts.createProgram(files, { ...STRICT_COMPILER_OPTIONS, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('handlers file outside the output folder (config `handlers`)', () => {
  it('is written once, compiles with the generated code, survives regeneration and an `out` change; a gained tool prints its stub', async () => {
    // Inside the repository so the generated imports resolve @mcpgen/runtime from its node_modules.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = project(['weather.yaml'], mkdtempSync(join(ROOT, '.tmp', 'repo-fit-')));
    writeFileSync(join(dir, 'mcpgen.config.yaml'), config('handlers: src/mcp/{server}.handlers.ts\n'));
    const first = await cli(['generate'], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('wrote src/mcp/weather.handlers.ts: a stub per handler method');
    expect(readdirSync(join(dir, 'generated/weather'))).not.toContain('handlers.ts');
    expect(readFileSync(join(dir, 'generated/weather/main.ts'), 'utf8')).toContain("from '../../src/mcp/weather.handlers.js'");
    const handlers = join(dir, 'src/mcp/weather.handlers.ts');
    expect(readFileSync(handlers, 'utf8')).toContain("from '../../generated/weather/server.js'");
    const code = readdirSync(join(dir, 'generated/weather')).filter((f) => f.endsWith('.ts')).map((f) => join(dir, 'generated/weather', f));
    expect(typeErrors([...code, handlers])).toEqual([]);

    // The user implements it; nothing ever overwrites it, and deleting it is not "stale output".
    const mine = readFileSync(handlers, 'utf8').replace('throw new Error("tool get_alerts: not implemented yet");', 'return { content: [] } as never;');
    writeFileSync(handlers, mine);
    expect((await cli(['generate'], dir)).code).toBe(0);
    expect((await cli(['generate', '--check'], dir)).code).toBe(0);
    expect(readFileSync(handlers, 'utf8')).toBe(mine);

    // `out` moves: the generated code follows, the handlers stay where they are, and main.ts finds them.
    writeFileSync(join(dir, 'mcpgen.config.yaml'), config('handlers: src/mcp/{server}.handlers.ts\n').replace('out: generated', 'out: src/gen'));
    const moved = await cli(['generate'], dir);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).not.toContain('wrote src/mcp');
    expect(readFileSync(handlers, 'utf8')).toBe(mine);
    expect(readFileSync(join(dir, 'src/gen/weather/main.ts'), 'utf8')).toContain("from '../../mcp/weather.handlers.js'");

    // The spec gains a tool: generate says which stub to add, once, where.
    const spec = join(dir, 'specs/weather.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^tools:\n/m, 'tools:\n  - name: ping_now\n    description: Ping.\n    input: { type: object }\n'));
    const gained = await cli(['generate'], dir);
    expect(gained.stderr).toContain('the weather spec gained 1 handler method(s); add to `handlers` in src/mcp/weather.handlers.ts:\n  async pingNow() {\n    throw new Error("tool ping_now: not implemented yet");\n  },\n');
    expect((await cli(['generate'], dir)).stderr).not.toContain('gained');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('says when a rename, a `handlers` change or a deleted spec leaves a handlers file no spec uses', async () => {
    const dir = project(['weather.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), config('handlers: src/{server}.handlers.ts\n'));
    const moved = await cli(['generate'], dir);
    expect(moved.stderr).toContain('warning: generated/weather/handlers.ts is a handlers file no spec uses any more');
    const spec = join(dir, 'specs/weather.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^ {2}name: weather$/m, '  name: forecast'));
    const renamed = await cli(['generate'], dir);
    expect(renamed.stderr).toContain('wrote src/forecast.handlers.ts');
    expect(renamed.stderr).toContain('warning: src/weather.handlers.ts is a handlers file no spec uses any more');
    // The spec is deleted (another one stays): its handlers file is unused too.
    cpSync(join(ROOT, 'specs/sql.yaml'), join(dir, 'specs/sql.yaml'));
    expect((await cli(['generate'], dir)).stderr).not.toContain('src/forecast.handlers.ts is a handlers file');
    rmSync(spec);
    const deleted = await cli(['generate'], dir);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain('warning: src/forecast.handlers.ts is a handlers file no spec uses any more');
  });

  it('says where the implemented handlers are when an `out` change leaves them in the old folder (default handlers location)', async () => {
    const dir = project(['weather.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs:\n  - specs/*.yaml\nout: src/generated\n');
    const moved = await cli(['generate'], dir);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('wrote src/generated/weather/handlers.ts');
    expect(moved.stderr).toContain('warning: generated/weather/handlers.ts is a handlers file no spec uses any more');
    // Said once: the new folder has its manifest now.
    expect((await cli(['generate'], dir)).stderr).not.toContain('no spec uses any more');
  });

  it('refuses a `handlers` path two servers would share (MCPG101 at both names)', async () => {
    const dir = project(['weather.yaml', 'sql.yaml']);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), config('handlers: src/handlers.ts\n'));
    const r = await cli(['generate'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/specs\/sql\.yaml:\d+:\d+ error MCPG101 specs\/weather\.yaml and this spec would share the handlers file src\/handlers\.ts/);
    expect(r.stderr).toMatch(/specs\/weather\.yaml:\d+:\d+ error MCPG101 specs\/sql\.yaml and this spec/);
    expect((await cli(['check'], dir)).stderr).toMatch(/specs\/weather\.yaml:\d+:\d+ error MCPG101/);
  });
});

describe('packageFiles: false', () => {
  it('writes no package.json or tsconfig.json, --check does not ask for them, and earlier ones are removed', async () => {
    const dir = project(['weather.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    expect(readdirSync(join(dir, 'generated/weather'))).toContain('package.json');
    writeFileSync(join(dir, 'mcpgen.config.yaml'), config('packageFiles: false\n'));
    const stale = await cli(['generate', '--check'], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('generated/weather/package.json (no longer generated)');
    expect((await cli(['generate'], dir)).code).toBe(0);
    expect(readdirSync(join(dir, 'generated/weather'))).not.toContain('package.json');
    expect(readdirSync(join(dir, 'generated/weather'))).not.toContain('tsconfig.json');
    const r = await cli(['generate', '--check'], dir);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('an edit that changes nothing generated', () => {
  it('rewrites nothing (inodes and mtimes unchanged), while --check still finds real staleness', async () => {
    const dir = project(['weather.yaml', 'sql.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    const before = stamps(join(dir, 'generated'));
    const spec = join(dir, 'specs/weather.yaml');
    writeFileSync(spec, `# a comment that generates nothing\n${readFileSync(spec, 'utf8')}`);
    expect((await cli(['generate', '--check'], dir)).code).toBe(0);
    const r = await cli(['generate'], dir);
    expect(r.stderr).toContain('wrote 0 file(s)');
    expect(stamps(join(dir, 'generated'))).toEqual(before);

    writeFileSync(spec, readFileSync(spec, 'utf8').replace('Weather forecast for a city.', 'Forecast for a city.'));
    const checked = await cli(['generate', '--check'], dir);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('generated/weather/definition.ts (changed)');
  });
});

describe('two specs with the same server.name', () => {
  it('is MCPG100 at both `name:` positions and writes nothing', async () => {
    const dir = project(['weather.yaml']);
    writeFileSync(join(dir, 'specs/copy.yaml'), `# a copy\n${readFileSync(join(dir, 'specs/weather.yaml'), 'utf8')}`);
    const line = readFileSync(join(dir, 'specs/weather.yaml'), 'utf8').split('\n').findIndex((l) => l === '  name: weather') + 1;
    const r = await cli(['generate', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { code: string; file: string; line: number; column: number; path: string }[]).filter((d) => d.code === 'MCPG100');
    expect(found.map(({ file, line: l, column, path }) => ({ file, line: l, column, path }))).toEqual([
      { file: 'specs/copy.yaml', line: line + 1, column: 9, path: 'server.name' },
      { file: 'specs/weather.yaml', line, column: 9, path: 'server.name' },
    ]);
    expect(readdirSync(dir)).not.toContain('generated');
    expect((await cli(['check'], dir)).stderr).toContain('error MCPG100 server name "weather" is also the server name in specs/weather.yaml');
  });
});

describe('generate --check --format json', () => {
  it('prints the stale files as MCPG102 diagnostics on stdout', async () => {
    const dir = project(['weather.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    const fresh = await cli(['generate', '--check', '--format', 'json'], dir);
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout)).toEqual([]);
    writeFileSync(join(dir, 'generated/weather/server.ts'), '// edited\n');
    rmSync(join(dir, 'generated/weather/types.ts'));
    const r = await cli(['generate', '--check', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    const stale = JSON.parse(r.stdout) as { code: string; severity: string; file: string; message: string }[];
    expect(stale.map((d) => [d.code, d.severity, d.file, d.message])).toEqual([
      ['MCPG102', 'error', 'generated/weather/server.ts', 'generated output is stale: changed; run `npx mcpgen generate`'],
      ['MCPG102', 'error', 'generated/weather/types.ts', 'generated output is stale: missing; run `npx mcpgen generate`'],
    ]);
  });
});
