// Skills read from a folder at start-up (MCPGEN_SKILLS_DIR), apart from skills.ts: the SDK's loader
// imports node:fs, which a generated fetch handler on workerd must not pull in (only main.ts's
// serverOptionsFromEnv loads this file).
// Both load on call, not at start (index.ts exports this to every server).
import type { SkillCatalog } from '@modelcontextprotocol/server/ext/skills';

/**
 * The skills in `dir`, read once at start-up (MCPGEN_SKILLS_DIR): for skills that change without a
 * rebuild. Strict like the embedded catalog; a problem is one message naming every file at fault.
 */
export async function skillsFromFolder(dir: string): Promise<SkillCatalog> {
  const [{ SkillCatalogError }, { loadSkills }] = await Promise.all([import('@modelcontextprotocol/server/ext/skills'), import('@modelcontextprotocol/server/ext/skills/node')]);
  try {
    return await loadSkills(dir, { strict: true });
  } catch (e) {
    const problems = SkillCatalogError.isInstance(e) ? e.problems.map((p) => `${p.path}: ${p.message}`).join('; ') : e instanceof Error ? e.message : String(e);
    throw new Error(`skills in ${dir}: ${problems}`);
  }
}
