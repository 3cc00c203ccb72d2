// `skills:` (SEP-2640) at build time: every problem the SDK's catalog would refuse at start-up is a
// diagnostic here, pointed at the spec's `skills:` value or at the line of the SKILL.md it is about.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline.js';
import { checkText, cli, tempDir } from '../helpers.js';

const SPEC = `mcpgen: 1
server: { name: s, version: '1' }
skills: skills
`;
const skill = (name: string, body = 'Body.\n', extra = '') => `---\nname: ${name}\ndescription: Does ${name} things.\n${extra}---\n\n${body}`;
const at = (r: ReturnType<typeof checkText>) => r.diagnostics.map((d) => `${d.code} ${d.file.split('/').slice(-3).join('/')}:${d.line}:${d.column}`);

describe('skills: folder', () => {
  it('embeds every file of every skill (UTF-8 as text, other bytes as base64) when all is well', () => {
    const r = checkText(SPEC, { 'skills/pdf/SKILL.md': skill('pdf'), 'skills/pdf/references/FORMS.md': '# Forms\n', 'skills/pdf/.hidden': 'skipped' });
    expect(r.diagnostics).toEqual([]);
    expect(r.models[0]!.skills).toEqual([
      { path: 'pdf/SKILL.md', text: skill('pdf') },
      { path: 'pdf/references/FORMS.md', text: '# Forms\n' },
    ]);
    const dir = tempDir();
    mkdirSync(join(dir, 'skills/raw'), { recursive: true });
    writeFileSync(join(dir, 'spec.yaml'), SPEC);
    writeFileSync(join(dir, 'skills/raw/SKILL.md'), `\ufeff${skill('raw')}`);
    writeFileSync(join(dir, 'skills/raw/blob.bin'), Buffer.from([0x89, 0x50, 0xff, 0x00]));
    const raw = check([join(dir, 'spec.yaml')], dir);
    expect(raw.diagnostics).toEqual([]);
    // The BOM stays: the digest the SDK publishes covers the file's bytes.
    expect(raw.models[0]!.skills).toEqual([
      { path: 'raw/SKILL.md', text: `\ufeff${skill('raw')}` },
      { path: 'raw/blob.bin', base64: Buffer.from([0x89, 0x50, 0xff, 0x00]).toString('base64') },
    ]);
  });

  it('a missing folder is MCPG095 at the spec\'s skills: value', () => {
    const r = checkText(SPEC);
    expect(at(r)).toEqual(['MCPG095 spec.yaml:3:9']);
    expect(r.diagnostics[0]!.message).toContain('no such folder');
    expect(r.models).toHaveLength(0);
  });

  it('a file instead of a folder, a folder without skills, a SKILL.md at the top, a folder outside the project: MCPG095', () => {
    expect(at(checkText(SPEC, { skills: 'not a folder' }))).toEqual(['MCPG095 spec.yaml:3:9']);
    expect(checkText(SPEC, { 'skills/notes/README.md': 'x' }).diagnostics[0]!.message).toContain('holds no skill');
    expect(checkText(SPEC, { 'skills/SKILL.md': skill('skills') }).diagnostics.map((d) => d.code)).toEqual(['MCPG095']);
    const outside = checkText(SPEC.replace('skills: skills', 'skills: ../..'));
    expect(outside.diagnostics.map((d) => d.code)).toEqual(['MCPG095']);
    expect(outside.diagnostics[0]!.message).toContain('outside the project');
  });

  it('frontmatter problems are MCPG096 at their line and column in the SKILL.md', () => {
    const r = checkText(SPEC, {
      'skills/a/SKILL.md': '# no frontmatter\n',
      'skills/b/SKILL.md': '---\nname: b\ndescription: [unclosed\n---\n',
      'skills/c/SKILL.md': '---\nname: Not_Valid\ndescription: ok\n---\n',
      'skills/d/SKILL.md': '---\nname: other\ndescription: ok\n---\n',
      'skills/e/SKILL.md': '---\nname: e\n---\n',
      'skills/f/SKILL.md': '---\nname: f\ndescription: ok\nmetadata:\n  author: me\n  version: 2\ncompatibility: ""\n---\n',
      'skills/g/SKILL.md': '\ufeff---\r\nname: g\r\ndescription: 42\r\n---\r\n',
    });
    expect(at(r)).toEqual([
      'MCPG096 skills/a/SKILL.md:1:1',
      'MCPG096 skills/b/SKILL.md:3:23',
      'MCPG096 skills/c/SKILL.md:2:7',
      'MCPG096 skills/d/SKILL.md:2:7',
      'MCPG096 skills/e/SKILL.md:2:1',
      'MCPG096 skills/f/SKILL.md:6:12',
      'MCPG096 skills/f/SKILL.md:7:16',
      'MCPG096 skills/g/SKILL.md:3:14',
    ]);
    const messages = r.diagnostics.map((d) => d.message).join('\n');
    expect(messages).toContain('must begin with YAML frontmatter');
    expect(messages).toContain('name "other" must equal the skill\'s folder name "d"');
    expect(messages).toContain('frontmatter has no `description`');
    expect(messages).toContain('metadata "version" must be a string');
    expect(r.models).toHaveLength(0);
  });

  it('over 512 files or 16 MiB is MCPG097 at the skill\'s SKILL.md', () => {
    const many: Record<string, string> = { 'skills/big/SKILL.md': skill('big') };
    for (let i = 0; i < 512; i++) many[`skills/big/f/${i}.txt`] = 'x';
    const r = checkText(SPEC, many);
    expect(at(r)).toEqual(['MCPG097 skills/big/SKILL.md:1:1']);
    expect(r.diagnostics[0]!.message).toContain('513 files');
    const large = checkText(SPEC, { 'skills/large/SKILL.md': skill('large'), 'skills/large/data.txt': 'y'.repeat(16 * 1024 * 1024) });
    expect(large.diagnostics.map((d) => d.code)).toEqual(['MCPG097']);
    expect(large.diagnostics[0]!.message).toContain(`${16 * 1024 * 1024 + skill('large').length} bytes`);
  });

  it('a symbolic link inside a skill is MCPG098 (never followed)', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'skills/linked'), { recursive: true });
    writeFileSync(join(dir, 'spec.yaml'), SPEC);
    writeFileSync(join(dir, 'skills/linked/SKILL.md'), skill('linked'));
    symlinkSync('/etc/passwd', join(dir, 'skills/linked/passwd'));
    return cli(['check', 'spec.yaml'], dir).then(({ code, stdout, stderr }) => {
      expect(code).toBe(1);
      expect(stdout + stderr).toMatch(/spec\.yaml:3:9.*MCPG098|MCPG098.*spec\.yaml:3:9/s);
      expect(stdout + stderr).toContain('"linked/passwd" is a symbolic link');
    });
  });

  it('a spec resource or template under skill:// is MCPG099 at its URI', () => {
    const r = checkText(`${SPEC}resources:\n  - { uri: 'skill://x/SKILL.md', name: x }\nresourceTemplates:\n  - { uriTemplate: 'skill://{name}/SKILL.md', name: t }\n`, { 'skills/x/SKILL.md': skill('x') });
    expect(at(r)).toEqual(['MCPG099 spec.yaml:5:12', 'MCPG099 spec.yaml:7:20']);
  });

  it('skills: belongs in the root spec only', () => {
    const r = checkText(`mcpgen: 1\nserver: { name: s, version: '1' }\ninclude: [more.yaml]\n`, { 'more.yaml': 'skills: skills\n' });
    expect(r.diagnostics.map((d) => d.code)).toContain('MCPG008');
  });

  it('the CLI prints a SKILL.md diagnostic with a code frame from the SKILL.md', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'skills/pdf'), { recursive: true });
    writeFileSync(join(dir, 'spec.yaml'), SPEC);
    writeFileSync(join(dir, 'skills/pdf/SKILL.md'), '---\nname: pdf\ndescription: ok\ncompatibility: 7\n---\n');
    const { code, stdout, stderr } = await cli(['check', 'spec.yaml'], dir);
    expect(code).toBe(1);
    const out = stdout + stderr;
    expect(out).toContain('skills/pdf/SKILL.md:4:16');
    expect(out).toContain('compatibility: 7');
  });
});
