import type { MethodDeclarationStructure, OptionalKind } from 'ts-morph';
import { Scope } from './ts-morph.js';
import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { docs, literal } from './doc.js';
import { sortImports } from './imports.js';

export function clientClassName(model: ServerModel): string {
  return stemNames(model.typeStem).client;
}

/** client.ts: one typed method per tool, resource, template and prompt. */
export function emitClient(model: ServerModel, file: FileSink): void {
  const types = new Set<string>();
  const runtime = new Set(['McpgenClient', 'type CallOptions', 'type ClientOptions', 'type ClientTarget']);
  const methods: OptionalKind<MethodDeclarationStructure>[] = [];
  for (const tool of model.tools) {
    types.add(tool.inputType);
    if (tool.outputType) types.add(tool.outputType);
    runtime.add('type ToolCallResult');
    const noArgs = tool.inputSchema.required === undefined || (Array.isArray(tool.inputSchema.required) && tool.inputSchema.required.length === 0);
    methods.push({
      name: tool.method,
      docs: docs(tool.description ?? tool.title, `Calls tool ${literal(tool.name)}.`),
      parameters: [
        // Optional rather than `= {}`: `{}` is not assignable to an input type with an optional property
        // named like an Object.prototype member (`toLocaleString?: string`). callTool sends `{}` for it.
        { name: 'args', type: tool.inputType, ...(noArgs ? { hasQuestionToken: true } : {}) },
        { name: 'options', type: 'CallOptions', hasQuestionToken: true },
      ],
      returnType: `Promise<ToolCallResult<${tool.outputType ?? 'unknown'}>>`,
      statements: [`return this.callTool(${literal(tool.name)}, args, options);`],
    });
  }
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
  const name = clientClassName(model);
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime/client', namedImports: sortImports(runtime) },
    { moduleSpecifier: './definition.js', namedImports: ['toolDefinitions'] },
    ...(types.size > 0 ? [{ moduleSpecifier: './types.js', isTypeOnly: true, namedImports: [...types].sort() }] : []),
  ]);
  file.addClass({
    name,
    isExported: true,
    extends: 'McpgenClient',
    docs: docs(`Typed client of the ${model.name} MCP server. Sends the per-request _meta and, over HTTP, the Mcp-Name and Mcp-Param-* headers from the spec's definitions.`),
    ctors: [{ scope: Scope.Private, statements: ['super(toolDefinitions);'] }],
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
}
