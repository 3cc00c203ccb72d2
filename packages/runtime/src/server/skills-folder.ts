// Skills read from a folder at start-up (MCPGEN_SKILLS_DIR), apart from skills.ts: the SDK's loader
// imports node:fs, which a generated fetch handler on workerd must not pull in (only main.ts's
// serverOptionsFromEnv loads this file).
import { SkillCatalogError, type SkillCatalog } from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';

/**
 * The skills in `dir`, read once at start-up (MCPGEN_SKILLS_DIR): for skills that change without a
 * rebuild. Strict like the embedded catalog; a problem is one message naming every file at fault.
 */
export async function skillsFromFolder(dir: string): Promise<SkillCatalog> {
  try {
    return await loadSkills(dir, { strict: true });
  } catch (e) {
    const problems = SkillCatalogError.isInstance(e) ? e.problems.map((p) => `${p.path}: ${p.message}`).join('; ') : e instanceof Error ? e.message : String(e);
    throw new Error(`skills in ${dir}: ${problems}`);
  }
}
