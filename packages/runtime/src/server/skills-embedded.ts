// The catalog a generated `skills.ts` embeds. The SDK's skills extension (its own chunk of the SDK)
// loads when the catalog is built, not at every server's start; and in a file of its own, because a
// bundler keeps every import() of a file it keeps: a worker bundle without skills drops this file and
// the extension with it.
import type { SkillCatalog } from '@modelcontextprotocol/server/ext/skills';

/** A skill file embedded by `mcpgen generate`: text (UTF-8) as is, anything else as base64. */
export type EmbeddedSkillFile = string | { readonly base64: string };

/**
 * The catalog of a generated `skills.ts`: files keyed by their path under the spec's `skills:` folder
 * (`pdf-processing/SKILL.md`). Strict: a problem `mcpgen check` let through fails start-up instead of
 * silently dropping a skill.
 */
export async function embeddedSkills(files: Readonly<Record<string, EmbeddedSkillFile>>): Promise<SkillCatalog> {
  const { SkillsExtension, memorySkillFiles } = await import('@modelcontextprotocol/server/ext/skills');
  const record: Record<string, string | Uint8Array> = {};
  for (const [path, file] of Object.entries(files)) record[path] = typeof file === 'string' ? file : new Uint8Array(Buffer.from(file.base64, 'base64'));
  return SkillsExtension.load(memorySkillFiles(record), { strict: true });
}

