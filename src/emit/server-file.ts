import type { MethodSignatureStructure, OptionalKind } from 'ts-morph';
import { VariableDeclarationKind } from './ts-morph.js';
import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel, ToolModel } from '../model/ir.js';
import { docs, jsdoc, literal } from './doc.js';
import { boundTools } from './upstream-file.js';
import { sortImports } from './imports.js';
import { propertyKey } from './schema-types.js';
import { MemberCache } from './member-cache.js';
import { quickSignatureText } from './member-text.js';

export function handlersInterfaceName(model: ServerModel): string {
  return stemNames(model.typeStem).handlers;
}

export function serverFactoryName(model: ServerModel): string {
  return stemNames(model.typeStem).factory;
}

/** Each tool's method of the handlers interface, printed, by its IR object (--watch). */
const HANDLER_METHODS = new MemberCache<ToolModel, string>();

/** server.ts: the typed handlers interface and the function that serves it. */
export function emitServer(model: ServerModel, file: FileSink): void {
  const typeImports = new Set<string>();
  const methods: OptionalKind<MethodSignatureStructure>[] = [];
  const handlerText = HANDLER_METHODS.with([]);
  // The tools' methods are printed as text (member-text.ts) and spliced in where one stand-in stands.
  const toolMethods: OptionalKind<MethodSignatureStructure>[] = [];
  let toolTexts = '';
  const runtime = new Set(['createMcpgenServer', 'type McpgenServer', 'type ServerOptions']);
  for (const tool of model.tools) {
    typeImports.add(tool.inputType);
    if (tool.outputType) typeImports.add(tool.outputType);
    for (const e of tool.elicit) if (e.contentType) typeImports.add(e.contentType);
    runtime.add('type ToolContext');
    const returns = tool.outputType ? `ToolReturn<${tool.outputType}>` : 'ContentToolReturn';
    runtime.add(tool.outputType ? 'type ToolReturn' : 'type ContentToolReturn');
    const method: OptionalKind<MethodSignatureStructure> = {
      name: tool.method,
      docs: docs(tool.description ?? tool.title, `Tool ${literal(tool.name)}.${tool.elicit.length ? ' May ask for input: return `ctx.elicit.<key>.ask()`; the retried call has `ctx.elicit.<key>.response`.' : ''}`),
      parameters: [
        { name: 'args', type: tool.inputType },
        { name: 'ctx', type: toolContextType(tool) },
      ],
      returnType: `Awaitable<${returns} | InputRequiredReply>`,
    };
    toolMethods.push(method);
    toolTexts += handlerText(tool, () => quickSignatureText(method));
  }
  if (toolMethods.length > 0) methods.push(file.spliced.signatures(toolTexts, toolMethods));
  for (const r of model.resources) {
    runtime.add('type RequestContext').add('type ResourceReply');
    methods.push({ name: r.method, docs: docs(r.description ?? r.title, `Resource ${literal(r.uri)}.`), parameters: [{ name: 'ctx', type: 'RequestContext' }], returnType: 'Awaitable<ResourceReply | InputRequiredReply>' });
  }
  for (const t of model.resourceTemplates) {
    typeImports.add(t.variablesType);
    runtime.add('type RequestContext').add('type ResourceReply');
    methods.push({
      name: t.method,
      docs: docs(t.description ?? t.title, `Resource template ${literal(t.uriTemplate)}. Throw \`notFound(uri)\` for URIs that match but do not exist.`),
      parameters: [{ name: 'variables', type: t.variablesType }, { name: 'ctx', type: 'RequestContext' }],
      returnType: 'Awaitable<ResourceReply | InputRequiredReply>',
    });
  }
  for (const p of model.prompts) {
    typeImports.add(p.argsType);
    runtime.add('type RequestContext').add('type PromptReply');
    methods.push({ name: p.method, docs: docs(p.description ?? p.title, `Prompt ${literal(p.name)}.`), parameters: [{ name: 'args', type: p.argsType }, { name: 'ctx', type: 'RequestContext' }], returnType: 'Awaitable<PromptReply | InputRequiredReply>' });
  }
  if (model.capabilities.completions) {
    runtime.add('type RequestContext').add('type CompleteRequestParams');
    methods.push({ name: 'complete', hasQuestionToken: true, docs: docs('Completion values for prompt arguments and template variables (at most 100 are sent).'), parameters: [{ name: 'params', type: 'CompleteRequestParams' }, { name: 'ctx', type: 'RequestContext' }], returnType: 'Awaitable<string[]>' });
  }

  // Tools, prompts and resources may all answer with an InputRequiredResult (MRTR); a spec with no handler
  // method imports neither type (noUnusedLocals in the package's tsconfig).
  if (methods.length > 0) runtime.add('type Awaitable');
  if (model.tools.length + model.resources.length + model.resourceTemplates.length + model.prompts.length > 0) runtime.add('type InputRequiredReply');
  const names = stemNames(model.typeStem);
  const bound = boundTools(model).length > 0;
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime/server', namedImports: sortImports(runtime) },
    { moduleSpecifier: './definition.js', namedImports: ['definition'] },
    ...(typeImports.size > 0 ? [{ moduleSpecifier: './types.js', isTypeOnly: true, namedImports: [...typeImports].sort() }] : []),
    ...(model.skills !== undefined ? [{ moduleSpecifier: './skills.js', namedImports: ['skills'] }] : []),
    ...(bound ? [{ moduleSpecifier: './upstream.js', namedImports: [names.proxy, `type ${names.boundMethod}`] }] : []),
  ]);
  file.addInterface({
    name: handlersInterfaceName(model),
    isExported: true,
    docs: docs(`What the ${model.name} server needs from you: one method per tool, resource, template and prompt of the spec.`),
    methods,
  });
  if (bound) {
    file.addStatements([
      `${jsdoc(`The handlers you write: every method of ${handlersInterfaceName(model)}, those of the tools bound to an upstream operation (\`http:\` in the spec) optional: the proxy answers a bound tool you leave out, and yours wins where you write one.`)}export type ${names.ownHandlers} = Omit<${handlersInterfaceName(model)}, ${names.boundMethod}> & Partial<Pick<${handlersInterfaceName(model)}, ${names.boundMethod}>>;`,
    ]);
  }
  file.addFunction({
    name: serverFactoryName(model),
    isExported: true,
    docs: docs(`The ${model.name} MCP server (protocol 2026-07-28) on your handlers. Arguments are validated against the input schemas before a handler runs; structuredContent is checked against the output schema.`),
    parameters: [
      { name: 'handlers', type: bound ? names.ownHandlers : handlersInterfaceName(model) },
      { name: 'options', type: 'ServerOptions', initializer: '{}' },
    ],
    returnType: 'McpgenServer',
    statements: [`return createMcpgenServer(definition, ${bound ? `{ ...${names.proxy}(), ...handlers }` : 'handlers'}, { legacy: ${model.legacy}, ${model.skills !== undefined ? 'skills, ' : ''}...options });`],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: docs('Protocol revision this server speaks.'),
    declarations: [{ name: 'PROTOCOL_VERSION', initializer: literal(model.protocolVersion) }],
  });
}

function toolContextType(tool: ToolModel): string {
  if (tool.elicit.length === 0) return 'ToolContext';
  const entries = tool.elicit.map((e) => `${propertyKey(e.key)}: ${e.contentType ?? 'undefined'}`);
  return `ToolContext<{ ${entries.join('; ')} }>`;
}
