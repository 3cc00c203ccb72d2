// The generated client's view of toolsets (docs/toolsets.md): which client methods each toolset brings, and
// `<Stem>ClientFor<S, Mode>`, the client type of a deployment that exposes toolsets S (read-only or not).
// The server filters by the same membership (runtime core/exposure.ts), so a method the type leaves out
// is one the deployment refuses as unknown.
import type { FileSink } from './file-builder.js';
import type { ServerModel, ToolsetModel } from '../model/ir.js';
import { stemNames } from '../common/names.js';
import { jsonLiteral } from './definition-file.js';
import { jsdoc } from './doc.js';

/** Client method names of a toolset's members, in spec order. */
function toolsetMethods(model: ServerModel, set: ToolsetModel): string[] {
  return [
    ...model.tools.filter((t) => set.tools.includes(t.name)).map((t) => t.method),
    ...model.resources.filter((r) => set.resources.includes(r.uri)).map((r) => r.method),
    ...model.resourceTemplates.filter((t) => set.resourceTemplates.includes(t.uriTemplate)).map((t) => t.method),
    ...model.prompts.filter((p) => set.prompts.includes(p.name)).map((p) => p.method),
  ];
}

/** Appends the toolset constants and types to client.ts; nothing when the spec declares no toolsets. */
export function emitClientToolsets(model: ServerModel, file: FileSink): void {
  if (model.toolsets.length === 0) return;
  const names = stemNames(model.typeStem);
  const table = Object.fromEntries(model.toolsets.map((t) => [t.name, toolsetMethods(model, t)]));
  const writes = model.tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => JSON.stringify(t.method));
  const defaults = model.toolsets.filter((t) => t.default).map((t) => JSON.stringify(t.name));
  const modes = `Mode extends 'read-write' | 'read-only' = 'read-write'`;
  const hidden = `Exclude<(typeof ${names.toolsets})[${names.toolset}][number], (typeof ${names.toolsets})[S][number]> | (Mode extends 'read-only' ? ${writes.length > 0 ? writes.join(' | ') : 'never'} : never)`;
  file.addStatements([
    `${jsdoc('The client methods each toolset exposes (methods of no toolset are always exposed).')}export const ${names.toolsets} = ${jsonLiteral(table)} as const;`,
    `${jsdoc(`A toolset of the ${model.name} server (\`--toolsets\`, MCPGEN_TOOLSETS).`)}export type ${names.toolset} = keyof typeof ${names.toolsets};`,
    `${jsdoc(`The client as a deployment exposing toolsets S sees it: methods of other toolsets are left out, and with Mode 'read-only' (\`--read-only\`) so are tools not annotated readOnlyHint. Default S: the spec's default toolsets. A connected ${names.client} is assignable to it.`)}export type ${names.clientFor}<S extends ${names.toolset} = ${defaults.length > 0 ? defaults.join(' | ') : 'never'}, ${modes}> = Omit<${names.client}, ${hidden}>;`,
  ]);
}
