// The generated client's view of toolsets (docs/toolsets.md): which client methods each toolset brings, and
// `<Stem>ClientFor<S, Mode>`, the client type of a deployment that exposes toolsets S (read-only or not).
// The server filters by the same membership (runtime core/exposure.ts), so a method the type leaves out
// is one the deployment refuses as unknown.
import type { MethodDeclarationStructure, OptionalKind } from 'ts-morph';
import { DISABLE_TOOLSET_TOOL, ENABLE_TOOLSET_TOOL, LIST_TOOLSETS_TOOL } from '@mcpgen/runtime/shared/discovery';
import type { FileSink } from './file-builder.js';
import type { ServerModel, ToolsetModel } from '../model/ir.js';
import { stemNames } from '../common/names.js';
import { jsonLiteral } from './definition-file.js';
import { docs, jsdoc, literal } from './doc.js';

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
  // With discovery a deployment that chooses none offers every toolset (runtime core/exposure.ts).
  const defaults = model.toolsets.filter((t) => t.default || model.discovery !== undefined).map((t) => JSON.stringify(t.name));
  const modes = `Mode extends 'read-write' | 'read-only' = 'read-write'`;
  const hidden = `Exclude<(typeof ${names.toolsets})[${names.toolset}][number], (typeof ${names.toolsets})[S][number]> | (Mode extends 'read-only' ? ${writes.length > 0 ? writes.join(' | ') : 'never'} : never)`;
  file.addStatements([
    `${jsdoc('The client methods each toolset exposes (methods of no toolset are always exposed).')}export const ${names.toolsets} = ${jsonLiteral(table)} as const;`,
    `${jsdoc(`A toolset of the ${model.name} server (\`--toolsets\`, MCPGEN_TOOLSETS).`)}export type ${names.toolset} = keyof typeof ${names.toolsets};`,
    `${jsdoc(`The client as a deployment exposing toolsets S sees it: methods of other toolsets are left out, and with Mode 'read-only' (\`--read-only\`) so are tools not annotated readOnlyHint. Default S: the spec's default toolsets. A connected ${names.client} is assignable to it.`)}export type ${names.clientFor}<S extends ${names.toolset} = ${defaults.length > 0 ? defaults.join(' | ') : 'never'}, ${modes}> = Omit<${names.client}, ${hidden}>;`,
  ]);
}

/**
 * Dynamic discovery (docs/toolsets.md#dynamic-discovery): typed methods for the tools the server adds —
 * listToolsets(), enableToolset(name), disableToolset(name) — taking the spec's toolset names. None without
 * `discovery:`. MCPG165 keeps spec tools off these names and method names.
 */
export function discoveryMethods(model: ServerModel): OptionalKind<MethodDeclarationStructure>[] {
  if (model.discovery === undefined) return [];
  const set = stemNames(model.typeStem).toolset;
  const change = `Promise<ToolCallResult<{ toolset: ${set}; changed: boolean; tools: string[] }>>`;
  const options = { name: 'options', type: 'CallOptions', hasQuestionToken: true };
  const toggle = (method: string, tool: string, text: string): OptionalKind<MethodDeclarationStructure> => ({
    name: method,
    docs: docs(text, `Calls tool ${literal(tool)}.`),
    parameters: [{ name: 'toolset', type: set }, options],
    returnType: change,
    statements: [`return this.callTool(${literal(tool)}, { toolset }, options);`],
  });
  return [
    {
      name: 'listToolsets',
      docs: docs('The toolsets this caller may enable, each with its tools and whether it is enabled now.', `Calls tool ${literal(LIST_TOOLSETS_TOOL)}.`),
      parameters: [options],
      returnType: `Promise<ToolCallResult<{ toolsets: { name: ${set}; description?: string; enabled: boolean; initial: boolean; tools: string[] }[] }>>`,
      statements: [`return this.callTool(${literal(LIST_TOOLSETS_TOOL)}, {}, options);`],
    },
    toggle('enableToolset', ENABLE_TOOLSET_TOOL, "Enables a toolset for this caller: its tools join tools/list (listen for tools/list_changed)."),
    toggle('disableToolset', DISABLE_TOOLSET_TOOL, 'Disables a toolset this caller enabled (initial toolsets stay).'),
  ];
}
