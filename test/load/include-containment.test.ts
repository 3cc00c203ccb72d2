import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline.js';
import { cli, tempDir } from '../helpers.js';

// A file outside the project whose lines must never show up in a diagnostic: invalid YAML, so that
// reading it would produce an MCPG001 with a code frame of its first lines.
const SECRET = 'SECRET-LINE-1: [unclosed\nSECRET-LINE-2\n';

/** <tmp>/outside/… and <tmp>/project/{mcpgen.config.yaml, shared/, specs/api.yaml}. */
function layout(include: string[]) {
  const top = tempDir('mcpgen-include-');
  const outside = join(top, 'outside');
  const project = join(top, 'project');
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(outside, 'secret.yaml'), SECRET);
  writeFileSync(join(outside, 'deep', 'also.yaml'), SECRET);
  mkdirSync(join(project, 'shared'), { recursive: true });
  mkdirSync(join(project, 'specs', 'parts'), { recursive: true });
  writeFileSync(join(project, 'mcpgen.config.yaml'), 'specs: [specs/api.yaml]\nout: generated\n');
  writeFileSync(join(project, 'shared', 'ok.yaml'), 'prompts:\n  - name: shared_prompt\n');
  writeFileSync(join(project, 'specs', 'parts', 'good.yaml'), 'tools:\n  - name: good\n');
  const lines = include.map((entry) => `  - ${JSON.stringify(entry.replace('<outside>', outside))}`);
  writeFileSync(join(project, 'specs', 'api.yaml'), `mcpgen: 1\nserver: { name: api, version: '1' }\ninclude:\n${lines.join('\n')}\n`);
  return { top, outside, project };
}

describe('include stays inside the spec\'s project', () => {
  it('refuses absolute paths, ../ escapes, outside globs and symbolic links leading outside, each at its entry, without reading them', async () => {
    const { outside, project } = layout([
      '../shared/ok.yaml', // inside the project (the config's directory): fine
      '../../outside/secret.yaml',
      '<outside>/secret.yaml',
      '<outside>/*.yaml',
      '../../outside/**/*.yaml',
      'parts/link.yaml',
      'linked/*.yaml',
      'more/*.yaml',
    ]);
    symlinkSync(join(outside, 'secret.yaml'), join(project, 'specs', 'parts', 'link.yaml'));
    symlinkSync(outside, join(project, 'specs', 'linked'));
    mkdirSync(join(project, 'specs', 'more'));
    symlinkSync(join(outside, 'deep', 'also.yaml'), join(project, 'specs', 'more', 'evil.yaml'));
    const r = await cli(['check', '--format', 'json'], project);
    const got = (JSON.parse(r.stdout) as { code: string; line: number; column: number; message: string; file: string }[]).map((d) => [d.code, d.file, d.line, d.column, d.message]);
    const rule = 'includes must stay inside the spec\'s project "./" (the directory of mcpgen.config.yaml)';
    expect(got).toEqual([
      ['MCPG008', 'specs/api.yaml', 5, 5, `include "../../outside/secret.yaml" reaches outside the project; ${rule}`],
      ['MCPG008', 'specs/api.yaml', 6, 5, `include ${JSON.stringify(`${outside}/secret.yaml`)} is an absolute path; give it relative to the spec: ${rule}`],
      ['MCPG008', 'specs/api.yaml', 7, 5, `include ${JSON.stringify(`${outside}/*.yaml`)} is an absolute path; give it relative to the spec: ${rule}`],
      ['MCPG008', 'specs/api.yaml', 8, 5, `include "../../outside/**/*.yaml" reaches outside the project; ${rule}`],
      ['MCPG008', 'specs/api.yaml', 9, 5, `include "parts/link.yaml" is a symbolic link to a file outside the project; ${rule}`],
      // The walk does not follow a directory link out of the project: nothing matches.
      ['MCPG008', 'specs/api.yaml', 10, 5, 'include pattern "linked/*.yaml" matches no file'],
      ['MCPG008', 'specs/api.yaml', 11, 5, `include "more/*.yaml" matches "specs/more/evil.yaml", which is a symbolic link to a file outside the project; ${rule}`],
    ]);
    expect(r.stdout + r.stderr).not.toContain('SECRET-LINE');
    const text = await cli(['check'], project);
    expect(text.stderr).not.toContain('SECRET-LINE');
    expect(text.stderr).toContain('7 errors');
  });

  it('without a config, the project is the root spec\'s directory', () => {
    const { project } = layout(['parts/good.yaml', '../shared/ok.yaml']);
    const result = check([join(project, 'specs', 'api.yaml')], project);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message.slice(0, 55)])).toEqual([
      ['MCPG008', 5, 5, 'include "../shared/ok.yaml" reaches outside the project'],
    ]);
    expect(result.diagnostics[0]!.message).toContain('"specs/" (the directory of the root spec)');
    // With the config's directory as the project, the same include is fine.
    const configured = check([join(project, 'specs', 'api.yaml')], project, project);
    expect(configured.diagnostics).toEqual([]);
    expect(configured.models[0]!.prompts.map((p) => p.name)).toEqual(['shared_prompt']);
    expect(configured.models[0]!.tools.map((t) => t.name)).toEqual(['good']);
  });

  it('a glob walk survives a symbolic-link loop inside the project', () => {
    const { project } = layout(['**/*.yaml']);
    symlinkSync('..', join(project, 'specs', 'parts', 'loop'));
    const result = check([join(project, 'specs', 'api.yaml')], project, project);
    expect(result.diagnostics).toEqual([]);
    expect(result.models[0]!.tools.map((t) => t.name)).toEqual(['good']);
  });
});
