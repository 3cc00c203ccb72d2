import type { MethodDeclarationStructure, OptionalKind } from 'ts-morph';
import { Scope } from './ts-morph.js';
import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel, ToolModel } from '../model/ir.js';
import { jsonLiteral } from './definition-file.js';
import { docs, literal } from './doc.js';
import { sortImports } from './imports.js';
import { MemberCache } from './member-cache.js';
import { quickMethodText } from './member-text.js';
import { discoveryMethods, emitClientToolsets } from './client-toolsets.js';

export function clientClassName(model: ServerModel): string {
  return stemNames(model.typeStem).client;
}

/** Each tool's client method, printed, by its IR object (--watch). */
const TOOL_CALLERS = new MemberCache<ToolModel, string>();

/** client.ts: one typed method per tool, resource, template and prompt. */
export function emitClient(model: ServerModel, file: FileSink): void {
  const types = new Set<string>();
  const runtime = new Set(['McpgenClient', 'type ClientOptions', 'type ClientTarget']);
  const methods: OptionalKind<MethodDeclarationStructure>[] = [];
  const callerText = TOOL_CALLERS.with([]);
  // The tools' methods are printed as text (member-text.ts) and spliced in where one stand-in stands.
  const toolMethods: OptionalKind<MethodDeclarationStructure>[] = [];
  const toolTexts: string[] = [];
  for (const tool of model.tools) {
    types.add(tool.argumentsType);
    if (tool.outputType) types.add(tool.outputType);
    runtime.add('type ToolCallResult');
    const noArgs = tool.inputSchema.required === undefined || (Array.isArray(tool.inputSchema.required) && tool.inputSchema.required.length === 0);
    const method: OptionalKind<MethodDeclarationStructure> = {
      name: tool.method,
      docs: docs(tool.description ?? tool.title, `Calls tool ${literal(tool.name)}.`),
      parameters: [
        // Optional rather than `= {}`: `{}` is not assignable to an input type with an optional property
        // named like an Object.prototype member (`toLocaleString?: string`). callTool sends `{}` for it.
        { name: 'args', type: tool.argumentsType, ...(noArgs ? { hasQuestionToken: true } : {}) },
        { name: 'options', type: 'CallOptions', hasQuestionToken: true },
      ],
      returnType: `Promise<ToolCallResult<${tool.outputType ?? 'unknown'}>>`,
      statements: [`return this.callTool(${literal(tool.name)}, args, options);`],
    };
    toolMethods.push(method);
    toolTexts.push(callerText(tool, () => quickMethodText(method)));
  }
  if (toolMethods.length > 0) methods.push(file.spliced.methods(toolTexts, toolMethods));
  for (const r of model.resources) {
    runtime.add('type ReadResourceResult');
    methods.push({
      name: r.method,
      docs: docs(r.description ?? r.title, `Reads resource ${literal(r.uri)}.`),
      parameters: [{ name: 'options', type: 'CallOptions', hasQuestionToken: true }],
      returnType: 'Promise<ReadResourceResult>',
      statements: [`return this.readResource(${literal(r.uri)}, options);`],
    });
  }
  for (const t of model.resourceTemplates) {
    types.add(t.variablesType);
    runtime.add('type ReadResourceResult');
    methods.push({
      name: t.method,
      docs: docs(t.description ?? t.title, `Reads a resource of template ${literal(t.uriTemplate)}.`),
      parameters: [{ name: 'variables', type: t.variablesType }, { name: 'options', type: 'CallOptions', hasQuestionToken: true }],
      returnType: 'Promise<ReadResourceResult>',
      statements: [`return this.readTemplate(${literal(t.uriTemplate)}, variables, options);`],
    });
  }
  for (const p of model.prompts) {
    types.add(p.argsType);
    runtime.add('type GetPromptResult');
    const noArgs = p.arguments.every((a) => !a.required);
    methods.push({
      name: p.method,
      docs: docs(p.description ?? p.title, `Gets prompt ${literal(p.name)}.`),
      parameters: [{ name: 'args', type: p.argsType, ...(noArgs ? { hasQuestionToken: true } : {}) }, { name: 'options', type: 'CallOptions', hasQuestionToken: true }],
      returnType: 'Promise<GetPromptResult>',
      statements: [`return this.getPrompt(${literal(p.name)}, ${noArgs ? 'args ?? {}' : 'args'}, options);`],
    });
  }
  const discovery = discoveryMethods(model);
  if (discovery.length > 0) runtime.add('type ToolCallResult');
  methods.push(...discovery);
  const taskTools = model.tools.filter((t) => t.task !== undefined);
  if (taskTools.length > 0) {
    runtime.add('type ToolStart');
    methods.push(startTaskMethod(taskTools));
  }
  const name = clientClassName(model);
  const withUi = model.tools.filter((t) => t.ui !== undefined);
  if (withUi.length > 0) {
    runtime.add('type UiResource').add('uiResourceOf');
    methods.push({
      name: 'readToolUi',
      isAsync: true,
      docs: docs('MCP Apps: reads the view (ui:// resource) of a tool and checks it is one: its HTML and `_meta.ui` (CSP origins, permissions), for a host to render in a sandboxed iframe.'),
      parameters: [{ name: 'tool', type: `keyof typeof ${name}.toolUi` }, { name: 'options', type: 'CallOptions', hasQuestionToken: true }],
      returnType: 'Promise<UiResource>',
      statements: [`const uri = ${name}.toolUi[tool];`, 'return uiResourceOf(await this.readResource(uri, options), uri);'],
    });
  }
  // Every method but connect takes CallOptions; a spec with nothing to call imports none (noUnusedLocals).
  if (methods.length > 0) runtime.add('type CallOptions');
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime-client', namedImports: sortImports(runtime) },
    { moduleSpecifier: './definition.js', namedImports: ['toolDefinitions'] },
    ...(types.size > 0 ? [{ moduleSpecifier: './types.js', isTypeOnly: true, namedImports: [...types].sort() }] : []),
  ]);
  file.addClass({
    name,
    isExported: true,
    extends: 'McpgenClient',
    docs: docs(`Typed client of the ${model.name} MCP server. Sends the per-request _meta and, over HTTP, the Mcp-Name and Mcp-Param-* headers from the spec's definitions.`),
    ctors: [{ scope: Scope.Private, statements: ['super(toolDefinitions);'] }],
    properties: withUi.length > 0
      ? [{
          name: 'toolUi',
          isStatic: true,
          isReadonly: true,
          docs: docs('MCP Apps: the view (ui:// resource) of each tool that has one, as tools/list announces it in `_meta.ui.resourceUri`.'),
          initializer: `${jsonLiteral(Object.fromEntries(withUi.map((t) => [t.name, t.ui!.resourceUri])))} as const`,
        }]
      : [],
    methods: [
      {
        name: 'connect',
        isStatic: true,
        isAsync: true,
        docs: docs('Connect over Streamable HTTP (`{ url }`) or stdio (`{ command, args }`).'),
        parameters: [{ name: 'target', type: 'ClientTarget' }, { name: 'options', type: 'ClientOptions', initializer: '{}' }],
        returnType: `Promise<${name}>`,
        statements: [`const client = new ${name}();`, `await client.open(target, options, ${literal(`${model.name}-client`)});`, 'return client;'],
      },
      ...methods,
    ],
  });
  emitClientToolsets(model, file);
}

/**
 * startTask(name, args): for tools that may run as tasks, the call's TaskHandle (or its result when the server
 * answered at once), for hosts that poll, answer and cancel themselves. One generic method keyed by tool name
 * rather than one per tool: no generated name can collide with a tool's own method.
 */
function startTaskMethod(tools: readonly ToolModel[]): OptionalKind<MethodDeclarationStructure> {
  const map = (type: (t: ToolModel) => string) => `{ ${tools.map((t) => `${literal(t.name)}: ${type(t)}`).join('; ')} }[K]`;
  return {
    name: 'startTask',
    docs: docs(
      `Starts a tool that may run as a task (${tools.map((t) => literal(t.name)).join(', ')}) and returns its handle (\`task\`: status(), respond(), cancel(), result()) or, when the server answered without a task, the \`result\`.`,
    ),
    typeParameters: [{ name: 'K', constraint: tools.map((t) => literal(t.name)).join(' | ') }],
    parameters: [
      { name: 'name', type: 'K' },
      { name: 'args', type: map((t) => t.argumentsType) },
      { name: 'options', type: 'CallOptions', hasQuestionToken: true },
    ],
    returnType: `Promise<ToolStart<ToolCallResult<${map((t) => t.outputType ?? 'unknown')}>>>`,
    statements: ['return this.startTool(name, args, options);'],
  };
}
