import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { docs } from './doc.js';
import { bridgeImports } from './openai-file.js';

/**
 * gemini.ts: the tools as Gemini function declarations (`config.tools` of @google/genai) and a dispatcher
 * (`response.functionCalls` → `functionResponse` parts), through the typed client. Structural types: no
 * dependency on `@google/genai`. A subpath of its own (`./gemini`), never imported by index.ts.
 */
export function emitGemini(model: ServerModel, file: FileSink): void {
  const names = stemNames(model.typeStem);
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime-client', namedImports: ['dispatchGeminiCalls', 'type GeminiFunctionCall', 'type GeminiFunctionDeclaration', 'type GeminiFunctionResponsePart', 'type GeminiTool', 'toGeminiFunctionDeclarations'] },
    ...bridgeImports(model),
  ]);
  // Mutable arrays: the SDK types `tools` and `functionDeclarations` as `Array<…>`.
  file.addStatements([
    '/**\n * The tools of this server as Gemini function declarations, from the same definitions tools/list sends: schemas in the subset\n * Gemini\'s `Schema` has (references inlined, `const` as `enum`, keywords it lacks left out; the server still checks them),\n * function and property names Gemini accepts (the dispatcher maps renamed properties back). `mcpgen check --target gemini`\n * lists each change.\n */\nexport const geminiFunctionDeclarations: GeminiFunctionDeclaration[] = toGeminiFunctionDeclarations(toolDefinitions);',
    '/** The same as `config.tools` (`ai.models.generateContent({ model, contents, config: { tools: geminiTools } })`). */\nexport const geminiTools: GeminiTool[] = [{ functionDeclarations: geminiFunctionDeclarations }];',
  ]);
  file.addFunction({
    name: names.geminiDispatcher,
    isExported: true,
    docs: docs("Runs a response's `functionCalls` through the client and answers each with a `functionResponse` part for the next user turn (`output`, or `error` when the tool failed; never thrown)."),
    parameters: [{ name: 'client', type: clientClassName(model) }, { name: 'calls', type: 'readonly GeminiFunctionCall[] | undefined' }],
    returnType: 'Promise<GeminiFunctionResponsePart[]>',
    statements: ['return dispatchGeminiCalls(toolCallers(client), calls, toolDefinitions);'],
  });
}
