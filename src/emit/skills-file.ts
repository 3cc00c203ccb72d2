import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { jsonLiteral } from './definition-file.js';

/**
 * skills.ts (only for a spec with `skills:`): the skill files, embedded at generate time so a built server
 * carries exactly what `mcpgen check` validated and needs no folder beside it at run time. Loaded once, at
 * import: the SDK computes the digests and serves skills/list, skills/get and the skill:// resources.
 */
export function emitSkills(model: ServerModel, file: FileSink): void {
  const files = Object.fromEntries((model.skills ?? []).map((f) => [f.path, 'text' in f ? f.text : { base64: f.base64 }]));
  file.addImportDeclaration({ moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['embeddedSkills'] });
  file.addStatements([
    `/** The skills of the spec's \`skills:\` folder (SEP-2640), keyed by path; non-UTF-8 files as base64. */\nexport const skills = await embeddedSkills(${jsonLiteral(files)});`,
  ]);
}
