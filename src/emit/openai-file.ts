import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { docs, literal } from './doc.js';

/** openai.ts: the tools as chat-completions `tools`, and a dispatcher from `tool_calls` to the typed client. */
export function emitOpenAi(model: ServerModel, file: FileSink): void {
  const client = clientClassName(model);
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime-client', namedImports: ['dispatchToolCalls', 'type OpenAiTool', 'type OpenAiToolCall', 'type OpenAiToolMessage', 'toOpenAiTools'] },
    { moduleSpecifier: './definition.js', namedImports: ['toolDefinitions'] },
    { moduleSpecifier: './client.js', isTypeOnly: true, namedImports: [client] },
    ...(model.tools.length > 0 ? [{ moduleSpecifier: './types.js', isTypeOnly: true, namedImports: model.tools.map((t) => t.inputType).sort() }] : []),
  ]);
  file.addStatements(['/** The tools of this server as OpenAI chat-completions `tools` (type "function"), from the same definitions tools/list sends. */\nexport const openAiTools: readonly OpenAiTool[] = toOpenAiTools(toolDefinitions);']);
  // A tool named `__proto__` as a plain key would set the literal's prototype: computed keys are always
  // data. `args: unknown` is spelled out: TypeScript types a callback keyed `isPrototypeOf` (or any other
  // Object.prototype member) from Object's method instead of the record's value type.
  const entries = model.tools.map((t) => `[${literal(t.name)}]: (args: unknown) => client.${t.method}(args as ${t.inputType}),`);
  file.addFunction({
    name: stemNames(model.typeStem).dispatcher,
    isExported: true,
    docs: docs("Runs a model's `tool_calls` through the client and answers each with a `role: \"tool\"` message (errors included, never thrown)."),
    // A server without tools never reads the client; the underscore keeps noUnusedParameters quiet.
    parameters: [{ name: model.tools.length > 0 ? 'client' : '_client', type: client }, { name: 'calls', type: 'readonly OpenAiToolCall[]' }],
    returnType: 'Promise<OpenAiToolMessage[]>',
    statements: [`return dispatchToolCalls({\n${entries.map((e) => `  ${e}`).join('\n')}\n}, calls);`],
  });
}
