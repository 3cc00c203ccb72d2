// Issue 45 #1 and #8 (shallow clones): `mcpgen breaking` in a real git repository made here, where specs are
// deleted and renamed between the versions, a --base folder is mistyped, and the clone is shallow.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/root.js';
import { git, gitRepo, run } from './breaking-repo.js';

const spec = (name: string, ...tools: string[]) => `mcpgen: 1\nserver: { name: ${name}, version: 1.0.0 }\ntools:\n${tools.map((t) => `  - { name: ${t}, description: ${t} }`).join('\n')}\n`;

let repo = '';
beforeAll(() => {
  repo = gitRepo('mcpgen-breaking-specs-');
  mkdirSync(join(repo, 'specs'));
  writeFileSync(join(repo, 'mcpgen.config.yaml'), 'specs: [specs/*.yaml]\n');
  writeFileSync(join(repo, 'specs/a.yaml'), spec('a', 'x'));
  writeFileSync(join(repo, 'specs/b.yaml'), spec('b', 'y'));
  writeFileSync(join(repo, 'specs/catalog.yaml'), spec('catalog', 'list', 'get'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'v1');
  git(repo, 'tag', 'v1');
});

describe('mcpgen breaking: specs deleted or renamed', () => {
  it('git rm of a spec: its server is removed, exit 1', () => {
    git(repo, 'rm', '-q', 'specs/b.yaml');
    try {
      const r = run(repo, ['breaking', '--base', 'v1']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('v1:specs/b.yaml:2:');
      expect(r.stderr).toContain('breaking SERVER_REMOVED [callers] server "b" was removed');
    } finally {
      git(repo, 'reset', '-q', '--hard', 'v1');
    }
  });

  it('git mv of a spec with a tool removed: paired by server name, the removed tool reported', () => {
    git(repo, 'mv', 'specs/catalog.yaml', 'specs/catalog-server.yaml');
    writeFileSync(join(repo, 'specs/catalog-server.yaml'), spec('catalog', 'list'));
    try {
      const r = run(repo, ['breaking', '--base', 'v1', '--format', 'json']);
      expect(r.code, r.stderr).toBe(1);
      const rules = JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule);
      expect(rules).toEqual(['TOOL_REMOVED']);
    } finally {
      git(repo, 'reset', '-q', '--hard', 'v1');
    }
  });

  it('a --base folder that holds none of the specs is a usage error, not "everything added"', () => {
    const empty = tempDir('mcpgen-base-typo-');
    const r = run(repo, ['breaking', '--base', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the folder holds none of the specs');
  });

  it('a --base folder with one spec fewer: that server is removed', () => {
    const old = tempDir('mcpgen-base-folder-');
    mkdirSync(join(old, 'specs'));
    for (const [f, t] of [['a', spec('a', 'x')], ['b', spec('b', 'y')], ['catalog', spec('catalog', 'list', 'get')], ['d', spec('d', 'z')]]) writeFileSync(join(old, `specs/${f}.yaml`), t!);
    writeFileSync(join(old, 'mcpgen.config.yaml'), 'specs: [specs/*.yaml]\n');
    const r = run(repo, ['breaking', '--base', old]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('SERVER_REMOVED [callers] server "d" was removed');
  });
});

describe('mcpgen breaking in a shallow clone', () => {
  it('says the history is shallow and how to fetch it', () => {
    writeFileSync(join(repo, 'specs/a.yaml'), spec('a', 'x', 'w'));
    git(repo, 'commit', '-qam', 'v2');
    const clone = join(tempDir('mcpgen-shallow-'), 'c');
    git(repo, 'clone', '-q', '--depth=1', `file://${repo}`, clone);
    const r = run(clone, ['breaking', '--base', 'HEAD~1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base "HEAD~1": this clone is shallow');
    expect(r.stderr).toContain('git fetch --deepen=1');
    expect(r.stderr).not.toContain('^{commit}');
    git(clone, 'fetch', '-q', '--deepen=1');
    expect(run(clone, ['breaking', '--base', 'HEAD~1']).code).toBe(0);
  });
});

describe('mcpgen breaking: config', () => {
  it('ignore scoped with only, and failOn unprovable, pass the config schema', () => {
    const dir = tempDir('mcpgen-breaking-only-');
    writeFileSync(join(dir, 'old.yaml'), spec('s', 'a', 'b'));
    writeFileSync(join(dir, 's.yaml'), spec('s', 'c'));
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs: [s.yaml]\nbreaking:\n  failOn: [callers, unprovable]\n  ignore:\n    - { rule: TOOL_REMOVED, reason: announced in 1.0, only: [a] }\n');
    const r = run(dir, ['breaking', '--base', 'old.yaml']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('tool "b" was removed');
    expect(r.stderr).not.toContain('tool "a" was removed');
    expect(r.stderr).toContain('1 ignored by config');
  });
});
