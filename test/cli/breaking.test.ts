// `mcpgen breaking` spawned from bin/mcpgen.js in a real git repository made here: --base a ref, a file,
// a folder; every format; the github format against GitHub's workflow-command syntax; config; exit codes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/root.js';
import { git, gitRepo, run } from './breaking-repo.js';

const V1 = `mcpgen: 1
server: { name: s, version: 1.0.0 }
tools:
  - name: get
    description: Get it.
    input:
      type: object
      properties:
        units: { enum: [c, f, k] }
  - name: gone
    description: "Removed, 100%: really"
`;
const V2 = `mcpgen: 1
server: { name: s, version: 1.1.0 }
tools:
  - name: get
    description: Get it.
    input:
      type: object
      properties:
        units: { enum: [c, f] }
      required: [units]
`;

let repo = '';
beforeAll(() => {
  repo = gitRepo('mcpgen-breaking-');
  mkdirSync(join(repo, 'specs'));
  writeFileSync(join(repo, 'mcpgen.config.yaml'), 'specs: [specs/s.yaml]\n');
  writeFileSync(join(repo, 'specs/s.yaml'), V1);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'v1');
  git(repo, 'tag', 'v1');
  writeFileSync(join(repo, 'specs/s.yaml'), V2);
});

describe('mcpgen breaking', () => {
  it('--base a git ref: exit 1, each change with rule, category and both positions; the repository untouched', () => {
    const r = run(repo, ['breaking', '--base', 'v1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('specs/s.yaml:9:16: breaking INPUT_ENUM_NARROWED [callers]');
    expect(r.stderr).toContain('(was v1:specs/s.yaml:9:16)');
    expect(r.stderr).toContain('v1:specs/s.yaml:10:5: breaking TOOL_REMOVED [callers] tool "gone" was removed');
    expect(r.stderr).toMatch(/INPUT_REQUIRED_ADDED/);
    expect(r.stderr).toContain('3 breaking changes');
    expect(git(repo, 'status', '--porcelain')).toBe('M specs/s.yaml');
  });

  it('no change against HEAD of the same content: exit 0', () => {
    writeFileSync(join(repo, 'specs/s.yaml'), V1);
    try {
      const r = run(repo, ['breaking', '--base', 'HEAD']);
      expect([r.code, r.stderr.trim()]).toEqual([0, '0 breaking changes, 0 other changes']);
    } finally {
      writeFileSync(join(repo, 'specs/s.yaml'), V2);
    }
  });

  it('--format github: one workflow command per finding in GitHub annotation syntax', () => {
    const r = run(repo, ['breaking', '--against', 'v1', '--format', 'github']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    // ::error|warning|notice file=F,line=N,col=N,title=T::message, properties and data escaped (%, CR, LF; `:` and `,` in properties).
    const syntax = /^::(error|warning|notice) file=[^,:\r\n]+,line=\d+,col=\d+,title=[^,:\r\n]+::[^\r\n]*$/;
    for (const line of lines) expect(line).toMatch(syntax);
    const removed = lines.find((l) => l.includes('TOOL_REMOVED'))!;
    expect(removed.startsWith('::error file=v1%3Aspecs/s.yaml,line=10,col=5,title=TOOL_REMOVED (callers)::')).toBe(true);
  });

  it('--format json and markdown', () => {
    const j = JSON.parse(run(repo, ['breaking', '--base', 'v1', '--format', 'json']).stdout);
    expect(j.breaking).toBe(3);
    expect(j.findings[0]).toMatchObject({ rule: expect.any(String), category: 'callers', severity: 'breaking', failing: true, new: { file: 'specs/s.yaml' } });
    const md = run(repo, ['diff', '--base', 'v1', '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| breaking | `TOOL_REMOVED` | callers |');
  });

  it('--base a file and a folder', () => {
    const old = tempDir();
    mkdirSync(join(old, 'specs'));
    writeFileSync(join(old, 'specs/s.yaml'), V1);
    expect(run(repo, ['breaking', '--base', join(old, 'specs/s.yaml')]).code).toBe(1);
    const folder = run(repo, ['breaking', '--base', old, '--format', 'json']);
    expect(JSON.parse(folder.stdout).breaking).toBe(3);
  });

  it('config: ignore with a reason, failOn; an unknown rule is a usage error', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'old.yaml'), V1);
    writeFileSync(join(dir, 's.yaml'), V2);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [s.yaml]\nbreaking:\n  ignore:\n    - { rule: TOOL_REMOVED, reason: announced in 1.0 }\n    - { rule: INPUT_REQUIRED_ADDED, reason: x }\n    - { rule: INPUT_ENUM_NARROWED, reason: x }\n');
    const r = run(dir, ['breaking', '--base', 'old.yaml']);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('3 ignored by config')]);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [s.yaml]\nbreaking:\n  failOn: [typed-clients]\n');
    expect(run(dir, ['breaking', '--base', 'old.yaml']).code).toBe(0);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [s.yaml]\nbreaking:\n  ignore: [{ rule: NO_SUCH_RULE, reason: x }]\n');
    expect(run(dir, ['breaking', '--base', 'old.yaml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('NO_SUCH_RULE') });
  });

  it('usage errors: no --base, a base that is neither file, folder nor revision; --help names the command', () => {
    expect(run(repo, ['breaking']).code).toBe(2);
    expect(run(repo, ['breaking', '--base', 'no-such-ref']).code).toBe(2);
    const help = run(repo, ['breaking', '--help']);
    expect(help.stdout).toContain('mcpgen breaking --base REF|FILE|DIR');
    expect(help.stdout).toContain('github');
  });
});
