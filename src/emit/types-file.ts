import { isObjectSchema } from '../common/json-schema.js';
import type { ServerModel, ToolModel } from '../model/ir.js';
import type { JsonSchema } from '../validate/spec-types.js';
import { docText, jsdoc, literal } from './doc.js';
import type { FileSink } from './file-builder.js';
import { MemberCache } from './member-cache.js';
import { NO_KEYS, objectType, propertyKey, schemaToType, type TypeScope } from './schema-types.js';
import { defaultsPlan } from '@mcpgen/runtime/shared/input-defaults';

/** types.ts: spec `$defs`, tool inputs/outputs, elicitation answers, template variables, prompt arguments. */
export function emitTypes(model: ServerModel, file: FileSink): void {
  const defNames = new Map(model.defs.map((d) => [d.name, d.typeName]));
  const scopeFor = (root: JsonSchema): TypeScope => ({
    root,
    specDef: (ref) => {
      const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
      if (m === null) return undefined;
      // A tool's own $defs entry of the same name shadows the spec's (as in resolution).
      if (isObjectSchema(root) && isObjectSchema(root.$defs) && root !== null && Object.hasOwn(root.$defs, m[1]!) && !isBundledCopy(root, m[1]!, model)) return undefined;
      return defNames.get(m[1]!);
    },
  });
  const defAliases: Alias[] = [];
  for (const def of model.defs) {
    defAliases.push({ name: def.typeName, isExported: true, type: schemaToType(def.schema, scopeFor({})), docs: [schemaDoc(def.schema), `Schema \`$defs.${def.name}\` of the spec.`] });
  }
  // A tool's aliases depend on it and on the spec's $defs (names, and which schema objects they are).
  const toolTexts = TOOL_TYPES.with(model.defs.flatMap((d) => [d.name, d.typeName, d.schema]));
  const texts: string[] = [];
  for (const tool of model.tools) {
    texts.push(...toolTexts(tool, () => toolAliases(tool, scopeFor).map(aliasText)));
  }
  const aliases: Alias[] = [];
  for (const t of model.resourceTemplates) {
    const lines = t.variables.map((v) => `  ${propertyKey(v.name)}${v.operator === '?' || v.operator === '&' ? '?' : ''}: ${v.explode ? 'string | string[]' : 'string'};`);
    aliases.push({ name: t.variablesType, isExported: true, type: lines.length ? `{\n${lines.join('\n')}\n}` : NO_KEYS, docs: [`Variables of resource template ${literal(t.uriTemplate)}.`] });
  }
  for (const p of model.prompts) {
    const lines = p.arguments.map((a) => `  ${a.description ? `/** ${docText(a.description).replace(/\s+/g, ' ')} */\n  ` : ''}${propertyKey(a.name)}${a.required ? '' : '?'}: string;`);
    aliases.push({ name: p.argsType, isExported: true, type: lines.length ? `{\n${lines.join('\n')}\n}` : NO_KEYS, docs: [`Arguments of prompt ${literal(p.name)}.`] });
  }
  // Printed as text: ts-morph would hang-indent the multi-line object types.
  file.addStatements([...defAliases.map(aliasText), ...texts, ...aliases.map(aliasText)]);
}

/** Each tool's alias texts, by its IR object (--watch). */
const TOOL_TYPES = new MemberCache<ToolModel, string[]>();

function aliasText(a: Alias): string {
  return `${jsdoc(...a.docs)}export type ${a.name} = ${a.type};`;
}

function toolAliases(tool: ToolModel, scopeFor: (root: JsonSchema) => TypeScope): Alias[] {
  const aliases = inputTypes(tool, scopeFor(tool.inputSchema));
  if (tool.outputSchema !== undefined && tool.outputType !== undefined) {
    aliases.push({ name: tool.outputType, isExported: true, type: schemaToType(tool.outputSchema, scopeFor(tool.outputSchema)), docs: [`structuredContent of tool ${literal(tool.name)}.`] });
  }
  aliases.push(...elicitTypes(tool));
  return aliases;
}

interface Alias {
  readonly name: string;
  readonly isExported: true;
  readonly type: string;
  readonly docs: readonly (string | undefined)[];
}

/**
 * The handler's input (the server fills in defaults: those properties are present) and the client's
 * arguments (defaulted properties optional, optional ones also `undefined`); one alias of the other when equal.
 */
function inputTypes(tool: ToolModel, scope: TypeScope): Alias[] {
  const plan = defaultsPlan(tool.inputSchema);
  const input = schemaToType(tool.inputSchema, scope, 0, new Set(), plan);
  const args = schemaToType(tool.inputSchema, { ...scope, optionalUndefined: true });
  return [
    { name: tool.inputType, isExported: true, type: input, docs: [`Arguments of tool ${literal(tool.name)}${plan === undefined ? '' : ' as its handler gets them: the defaults filled in'}.`] },
    { name: tool.argumentsType, isExported: true, type: args === input ? tool.inputType : args, docs: [`Arguments of tool ${literal(tool.name)} as a client sends them.`] },
  ];
}

function elicitTypes(tool: ToolModel): Alias[] {
  return tool.elicit
    .filter((e) => e.contentType !== undefined && e.schema !== undefined)
    .map((e) => ({ name: e.contentType!, isExported: true, type: objectType(e.schema!, { root: e.schema!, specDef: () => undefined }), docs: [`Accepted answer to elicitation ${literal(e.key)} of tool ${literal(tool.name)}.`] }));
}

function schemaDoc(schema: JsonSchema): string | undefined {
  return isObjectSchema(schema) && typeof schema.description === 'string' ? schema.description : undefined;
}

/** Bundling copies spec $defs into tool schemas; those copies are the spec's named types, not local ones. */
function isBundledCopy(root: { readonly [k: string]: unknown }, name: string, model: ServerModel): boolean {
  const local = (root.$defs as Record<string, unknown>)[name];
  return model.defs.some((d) => d.name === name && d.schema === local);
}
