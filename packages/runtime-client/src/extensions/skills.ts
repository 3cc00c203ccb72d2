// The host side of Skills (SEP-2640) for generated clients: the SDK's SkillsClient (skills/list,
// skills/get, resources/read with size, digest and frontmatter checks) plus `load`, which fetches a
// skill's files only when the host decides to use the skill, never ahead of it (no prefetch).
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill, type SkillFile } from '@modelcontextprotocol/client/ext/skills';

/** A skill read in full: its SKILL.md (frontmatter and body) and every other file, all verified. */
export interface LoadedSkill {
  readonly skill: Skill;
  readonly manifest: SkillFile;
  readonly files: readonly SkillFile[];
}

export class McpgenSkills extends SkillsClient {
  /**
   * Reads `skill`'s SKILL.md, then its other files, each checked against the entry. The first file that
   * fails throws a SkillVerificationError before anything after it is requested, so nothing of a
   * tampered skill is used. A `"dynamic"` skill has no file list: only its SKILL.md is read.
   */
  async load(skill: Skill): Promise<LoadedSkill> {
    const manifest = await this.read(skill);
    const others = Array.isArray(skill.resources) ? skill.resources.filter((r) => r.uri !== skill.uri) : [];
    const files: SkillFile[] = [];
    for (const r of others) files.push(await this.read(skill, r.uri));
    return { skill, manifest, files };
  }
}

const bySdk = new WeakMap<Client, McpgenSkills>();

/** One skills client per SDK client (it reads the server's capabilities lazily, so connect first). */
export function skillsClientFor(sdk: Client): McpgenSkills {
  let skills = bySdk.get(sdk);
  if (skills === undefined) bySdk.set(sdk, (skills = new McpgenSkills(sdk)));
  return skills;
}
