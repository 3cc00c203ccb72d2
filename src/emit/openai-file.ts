import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { docs, literal } from './doc.js';

/**
 * openai.ts: the tools in both OpenAI forms (chat-completions `tools`, Responses API `tools`) and a
 * dispatcher for each (`tool_calls` → role:"tool" messages, `function_call` items → `function_call_output`
 * items), all through the typed client. Structural types: no dependency on the `openai` package.
 */
export function emitOpenAi(model: ServerModel, file: FileSink): void {
  const client = clientClassName(model);
  const names = stemNames(model.typeStem);
  file.addImportDeclarations([
    {
      moduleSpecifier: '@mcpgen/runtime-client',
      namedImports: ['dispatchFunctionCalls', 'dispatchToolCalls', 'type OpenAiResponseItem', 'type OpenAiResponsesOutput', 'type OpenAiResponsesTool', 'type OpenAiTool', 'type OpenAiToolCall', 'type OpenAiToolMessage', 'toOpenAiResponsesTools', 'toOpenAiTools'],
    },
    ...bridgeImports(model),
  ]);
  // Mutable arrays: `openai` types `tools` as `Array<…>`, and a readonly array is not assignable to one.
  file.addStatements([
    '/** The tools of this server as OpenAI chat-completions `tools` (type "function"), from the same definitions tools/list sends. */\nexport const openAiTools: OpenAiTool[] = toOpenAiTools(toolDefinitions);',
    '/** The same tools in the Responses API form (`client.responses.create({ tools })`). */\nexport const openAiResponsesTools: OpenAiResponsesTool[] = toOpenAiResponsesTools(toolDefinitions);',
    '/**\n * The tools for OpenAI strict mode (`strict: true`): optional properties required and nullable, keywords strict mode refuses\n * left out (the server still checks them); a tool with no strict form goes out with `strict: false`. The dispatchers map\n * the nulls back, so handlers get what a non-strict call gives. Names are provider-safe in every form (≤ 64 of [A-Za-z0-9_-]).\n */\nexport const openAiStrictTools: OpenAiTool[] = toOpenAiTools(toolDefinitions, { strict: true });',
    '/** openAiStrictTools in the Responses API form. */\nexport const openAiStrictResponsesTools: OpenAiResponsesTool[] = toOpenAiResponsesTools(toolDefinitions, { strict: true });',
  ]);
  file.addFunction({
    name: names.dispatcher,
    isExported: true,
    docs: docs("Runs a model's `tool_calls` through the client and answers each with a `role: \"tool\"` message (errors included, never thrown); calls that are not function calls are refused in their answer."),
    parameters: [{ name: 'client', type: client }, { name: 'calls', type: 'readonly OpenAiToolCall[]' }],
    returnType: 'Promise<OpenAiToolMessage[]>',
    statements: ['return dispatchToolCalls(toolCallers(client), calls, toolDefinitions);'],
  });
  file.addFunction({
    name: names.functionCallDispatcher,
    isExported: true,
    docs: docs("Runs the `function_call` items of a Responses API `response.output` through the client and answers each with a `function_call_output` item for the next `input` (errors included, never thrown); other items are skipped."),
    parameters: [{ name: 'client', type: client }, { name: 'items', type: 'readonly OpenAiResponseItem[]' }],
    returnType: 'Promise<OpenAiResponsesOutput[]>',
    statements: ['return dispatchFunctionCalls(toolCallers(client), items, toolDefinitions);'],
  });
}

/**
 * tool-callers.ts: each tool by name, called through the typed client, for the provider bridges
 * (openai.ts, anthropic.ts, gemini.ts); not a subpath of the package, and not imported by index.ts.
 */
export function emitToolCallers(model: ServerModel, file: FileSink): void {
  file.addImportDeclarations([
    { moduleSpecifier: './client.js', isTypeOnly: true, namedImports: [clientClassName(model)] },
    ...(model.tools.length > 0 ? [{ moduleSpecifier: './types.js', isTypeOnly: true, namedImports: model.tools.map((t) => t.argumentsType).sort() }] : []),
  ]);
  // A tool named `__proto__` as a plain key would set the literal's prototype: computed keys are always
  // data. `args: unknown` is spelled out: TypeScript types a callback keyed `isPrototypeOf` (or any other
  // Object.prototype member) from Object's method instead of the record's value type.
  const entries = model.tools.map((t) => `[${literal(t.name)}]: (args: unknown) => client.${t.method}(args as ${t.argumentsType}),`);
  // A server without tools never reads the client; the underscore keeps noUnusedParameters quiet.
  const clientParam = { name: model.tools.length > 0 ? 'client' : '_client', type: clientClassName(model) };
  file.addFunction({
    name: 'toolCallers',
    isExported: true,
    docs: docs('Each tool by name, called through the typed client (the provider dispatchers run calls through it).'),
    parameters: [clientParam],
    statements: [`return {\n${entries.map((e) => `  ${e}`).join('\n')}\n};`],
  });
}

/** The imports every provider bridge file needs besides its runtime functions. */
export function bridgeImports(model: ServerModel): { moduleSpecifier: string; isTypeOnly?: boolean; namedImports: string[] }[] {
  return [
    { moduleSpecifier: './definition.js', namedImports: ['toolDefinitions'] },
    { moduleSpecifier: './tool-callers.js', namedImports: ['toolCallers'] },
    { moduleSpecifier: './client.js', isTypeOnly: true, namedImports: [clientClassName(model)] },
  ];
}
