import { VariableDeclarationKind } from 'ts-morph';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { docs, literal } from './doc.js';
import { handlersInterfaceName, serverFactoryName } from './server-file.js';

/** index.ts: the package's public surface. */
export function emitIndex(file: FileSink): void {
  file.addExportDeclarations([
    { moduleSpecifier: './types.js' },
    { moduleSpecifier: './server.js' },
    { moduleSpecifier: './client.js' },
    { moduleSpecifier: './openai.js' },
    { moduleSpecifier: './definition.js' },
  ]);
}

/** main.ts: `node main.js` serves stdio; `node main.js --http --port 3000` serves Streamable HTTP. */
export function emitMain(model: ServerModel, file: FileSink): void {
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['runMain', 'serverOptionsFromEnv'] },
    { moduleSpecifier: './handlers.js', namedImports: ['handlers'] },
    { moduleSpecifier: './server.js', namedImports: [serverFactoryName(model)] },
  ]);
  // Deployment settings (Redis bus, requestState keys) come from the environment: see serverOptionsFromEnv.
  file.addStatements([`await runMain(${serverFactoryName(model)}(handlers, await serverOptionsFromEnv(${literal(model.name)})));`]);
}

/** handlers.ts: written once with a stub per method; after that it is the user's file. */
export function emitHandlersScaffold(model: ServerModel, file: FileSink): void {
  const members: string[] = [];
  for (const t of model.tools) members.push(stub(t.method, `tool ${t.name}`));
  for (const r of model.resources) members.push(stub(r.method, `resource ${r.uri}`));
  for (const t of model.resourceTemplates) members.push(stub(t.method, `resource template ${t.uriTemplate}`));
  for (const p of model.prompts) members.push(stub(p.method, `prompt ${p.name}`));
  file.addImportDeclaration({ moduleSpecifier: './server.js', isTypeOnly: true, namedImports: [handlersInterfaceName(model)] });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(`Your implementation of the ${model.name} server. mcpgen wrote this file once and never overwrites it; ${clientClassName(model)} and server.ts stay in sync with the spec.`),
    declarations: [{ name: 'handlers', type: handlersInterfaceName(model), initializer: `{\n${members.join('\n')}\n}` }],
  });
}

function stub(method: string, what: string): string {
  return `  async ${method}() {\n    throw new Error(${literal(`${what}: not implemented yet`)});\n  },`;
}
