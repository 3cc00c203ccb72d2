// `skills:` (SEP-2640): what the SDK's catalog would refuse or skip at start-up, found at build time and
// pointed at where it is — the spec's `skills:` value for the folder, the SKILL.md line for frontmatter.
// The rules follow the SDK's (SkillsExtension.load, strict) and the Agent Skills naming rules.
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultSeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { isInside } from '../load/glob.js';
import { readSkillTree, type SkillTreeEntry } from '../load/skill-files.js';
import { displayPath, projectOf, type LoadedSpec } from '../load/spec-files.js';
import { diagnosticAt, parseSource, type JsonPath, type SourceFile } from '../parse/source.js';
import type { RawSpecFile } from './spec-types.js';

/** SEP-2640 publication limits per skill (the SDK's SKILL_LIMITS). */
export const SKILL_FILE_LIMIT = 512;
export const SKILL_BYTE_LIMIT = 16 * 1024 * 1024;
const NAME = /^[\da-z]+(?:-[\da-z]+)*$/;
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface SkillFile {
  /** `/`-separated, relative to the skills folder (the key the runtime's catalog is built from). */
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface SkillsCheck {
  readonly diagnostics: Diagnostic[];
  /** Every file of every skill, in path order; absent when the spec has no `skills:` or it has errors. */
  readonly files?: readonly SkillFile[];
  /** SKILL.md texts by display name, for code frames. */
  readonly sources: ReadonlyMap<string, string>;
}

export function checkSkills(spec: LoadedSpec, specPath: string, cwd: string, configDir?: string): SkillsCheck {
  const root = spec.root;
  const value = (root.value ?? {}) as RawSpecFile;
  const sources = new Map<string, string>();
  if (typeof value.skills !== 'string') return { diagnostics: [], sources };
  const diagnostics = skillSchemeClashes(spec);
  const atKey = (message: string, code: DiagnosticCode = 'MCPG095') => diagnosticAt(root, ['skills'], code, message);
  const dir = resolve(dirname(specPath), value.skills);
  const project = projectOf(specPath, configDir);
  if (!isInside(dir, project) || !isInside(realOr(dir), realOr(project))) {
    return { diagnostics: [...diagnostics, atKey(`skills folder "${value.skills}" is outside the project (${displayPath(project, cwd)}): its files would be embedded into the generated server`)], sources };
  }
  const tree = readSkillTree(dir);
  if ('error' in tree) return { diagnostics: [...diagnostics, atKey(`skills folder "${value.skills}": ${tree.error}`)], sources };
  if (tree.truncated) diagnostics.push(atKey(`skills folder "${value.skills}" holds more than ${tree.entries.length} entries; point \`skills:\` at the folder of skills itself`));
  const manifests = tree.entries.filter((e) => e.kind === 'file' && baseName(e.path) === 'SKILL.md');
  const skillDirs = manifests.map((m) => dirname(m.path)).map((d) => (d === '.' ? '' : d));
  if (skillDirs.includes('')) diagnostics.push(atKey(`"${value.skills}/SKILL.md": a skill at the top of the skills folder has no name; \`skills:\` names the folder that holds skill folders`));
  const skills = skillDirs.filter((d) => d !== '');
  if (skills.length === 0 && !skillDirs.includes('')) diagnostics.push(atKey(`skills folder "${value.skills}" holds no skill (a skill is a folder with a SKILL.md)`));
  const embedded = new Map<string, SkillFile>();
  for (const skill of skills) {
    const inside = tree.entries.filter((e) => e.path.startsWith(`${skill}/`));
    const manifestAbs = resolve(dir, skill, 'SKILL.md');
    const manifestFile = displayPath(manifestAbs, cwd);
    const atFile = (code: DiagnosticCode, message: string): Diagnostic => ({ code, severity: defaultSeverity(code), message, file: manifestFile, line: 1, column: 1, path: '$' });
    const broken = inside.filter((e) => e.kind === 'unsupported' || e.error !== undefined);
    for (const e of broken) diagnostics.push(atKey(`skill "${skill}": "${e.path}" ${e.error ?? 'cannot be served'}; the SDK skips a skill holding it`, 'MCPG098'));
    const files = inside.filter((e) => e.kind === 'file');
    const bytes = files.reduce((n, f) => n + (f.size ?? 0), 0);
    if (files.length > SKILL_FILE_LIMIT || bytes > SKILL_BYTE_LIMIT) {
      diagnostics.push(atFile('MCPG097', `skill "${skill}" has ${files.length} files / ${bytes} bytes; a skill may have at most ${SKILL_FILE_LIMIT} files and ${SKILL_BYTE_LIMIT} bytes (16 MiB)`));
    }
    const manifest = files.find((f) => f.path === `${skill}/SKILL.md`)!;
    if (manifest.bytes !== undefined) {
      const fm = checkFrontmatter(manifest, skill, manifestFile);
      diagnostics.push(...fm.diagnostics);
      if (fm.text !== undefined) sources.set(manifestFile, fm.text);
    }
    for (const f of files) if (f.bytes !== undefined) embedded.set(f.path, { path: f.path, bytes: f.bytes });
  }
  const ok = !diagnostics.some((d) => d.severity === 'error');
  return { diagnostics, sources, ...(ok ? { files: [...embedded.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) } : {}) };
}

/** The frontmatter rules of SEP-2640 and Agent Skills, positioned in the SKILL.md itself. */
function checkFrontmatter(manifest: SkillTreeEntry, skill: string, file: string): { diagnostics: Diagnostic[]; text?: string } {
  const at = (line: number, column: number, message: string, path = '$'): Diagnostic => ({ code: 'MCPG096', severity: 'error', message, file, line, column, path });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(manifest.bytes);
  } catch {
    return { diagnostics: [at(1, 1, 'SKILL.md is not valid UTF-8')] };
  }
  const match = FRONTMATTER.exec(text);
  if (match === null) return { diagnostics: [at(1, 1, 'SKILL.md must begin with YAML frontmatter between "---" lines, holding at least `name` and `description`')], text };
  // The frontmatter starts on line 2; positions inside it are shifted by that one line.
  const yaml = match[1]!;
  const shift = (d: Diagnostic): Diagnostic => ({ ...d, code: 'MCPG096', severity: 'error', file, line: d.line + 1 });
  const parsed = parseSource(file, new TextEncoder().encode(yaml));
  if (parsed.diagnostics.length > 0 || parsed.source.value === undefined) return { diagnostics: parsed.diagnostics.map((d) => shift({ ...d, message: `frontmatter: ${d.message}` })), text };
  const source = parsed.source;
  const fm = source.value;
  if (typeof fm !== 'object' || fm === null || Array.isArray(fm)) return { diagnostics: [at(2, 1, 'frontmatter must be a YAML mapping with `name` and `description`')], text };
  const out: Diagnostic[] = [];
  const field = (path: JsonPath, message: string, target: 'key' | 'value' = 'value') => out.push(shift(diagnosticAt(source, path, 'MCPG096', message, target)));
  const record = fm as Record<string, unknown>;
  const folder = skill.split('/').pop()!;
  const { name, description, compatibility, metadata } = record;
  if (name === undefined) out.push(at(2, 1, 'frontmatter has no `name`'));
  else if (typeof name !== 'string' || name.length === 0 || name.length > 64 || !NAME.test(name)) field(['name'], `name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and single hyphens`);
  else if (name !== folder) field(['name'], `name "${name}" must equal the skill's folder name "${folder}" (the last segment of its skill:// URI)`);
  if (description === undefined) out.push(at(2, 1, 'frontmatter has no `description`'));
  else if (typeof description !== 'string' || description.length === 0 || [...description].length > 1024) field(['description'], 'description must be a string of 1-1024 characters');
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length === 0 || [...compatibility].length > 500)) field(['compatibility'], 'compatibility must be a string of 1-500 characters');
  if (metadata !== undefined) {
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) field(['metadata'], 'metadata must map strings to strings');
    else for (const [k, v] of Object.entries(metadata)) if (typeof v !== 'string') field(['metadata', k], `metadata "${k}" must be a string`);
  }
  return { diagnostics: out, text };
}

/** A spec resource under skill:// would be shadowed by (or shadow) the skill files. */
function skillSchemeClashes(spec: LoadedSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const source of [spec.root, ...spec.includes] as SourceFile[]) {
    const v = (source.value ?? {}) as RawSpecFile;
    (v.resources ?? []).forEach((r, i) => {
      if (typeof r?.uri === 'string' && /^skill:/i.test(r.uri)) out.push(diagnosticAt(source, ['resources', i, 'uri'], 'MCPG099', `resource "${r.uri}" uses the skill:// scheme, which the skills extension serves from \`skills:\``));
    });
    (v.resourceTemplates ?? []).forEach((t, i) => {
      if (typeof t?.uriTemplate === 'string' && /^skill:/i.test(t.uriTemplate)) out.push(diagnosticAt(source, ['resourceTemplates', i, 'uriTemplate'], 'MCPG099', `resource template "${t.uriTemplate}" uses the skill:// scheme, which the skills extension serves from \`skills:\``));
    });
  }
  return out;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
