import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { docs } from './doc.js';
import { bridgeImports } from './openai-file.js';

/**
 * anthropic.ts: the tools in Anthropic's Messages API form (`tools`: name, description, input_schema) and a
 * dispatcher (`tool_use` blocks → `tool_result` blocks), through the typed client. Structural types: no
 * dependency on `@anthropic-ai/sdk`. A subpath of its own (`./anthropic`), never imported by index.ts.
 */
export function emitAnthropic(model: ServerModel, file: FileSink): void {
  const names = stemNames(model.typeStem);
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime-client', namedImports: ['dispatchToolUses', 'type AnthropicContentBlock', 'type AnthropicTool', 'type AnthropicToolResult', 'toAnthropicTools'] },
    ...bridgeImports(model),
  ]);
  // A mutable array: the SDK types `tools` as `Array<…>`, and a readonly array is not assignable to one.
  file.addStatements([
    '/**\n * The tools of this server as Anthropic `tools` (`client.messages.create({ tools })`), from the same definitions tools/list\n * sends. Names are provider-safe (≤ 64 of [A-Za-z0-9_-]); root `anyOf`/`oneOf`/`allOf`, which the API refuses, are left\n * out (the server still checks them). `mcpgen check --target anthropic` lists each change.\n */\nexport const anthropicTools: AnthropicTool[] = toAnthropicTools(toolDefinitions);',
  ]);
  file.addFunction({
    name: names.toolUseDispatcher,
    isExported: true,
    docs: docs("Runs the `tool_use` blocks of a model's `message.content` through the client and answers each with a `tool_result` block for the next user message (errors included with `is_error`, never thrown); other blocks are skipped."),
    parameters: [{ name: 'client', type: clientClassName(model) }, { name: 'blocks', type: 'readonly AnthropicContentBlock[]' }],
    returnType: 'Promise<AnthropicToolResult[]>',
    statements: ['return dispatchToolUses(toolCallers(client), blocks, toolDefinitions);'],
  });
}
