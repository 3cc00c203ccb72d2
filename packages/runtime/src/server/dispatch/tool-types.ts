// The shapes tools.ts and tool-tasks.ts share: a tool prepared for calls, and the functions that run one.
import type { CallToolResult, inputRequired, Server, ServerContext } from '@modelcontextprotocol/server';
import type { ToolContext } from '../core/context.js';
import type { TaskSettings, ToolSpec } from '../core/definition.js';
import type { InputRequiredReply } from '../core/replies.js';
import type { Validator } from '../core/validators.js';

export interface PreparedTool {
  readonly spec: ToolSpec;
  readonly validateInput: Validator;
  readonly validateOutput: Validator | undefined;
  /** Form-mode `elicit` keys → their requestedSchema's validator, for answers on the retry. */
  readonly validateAnswers: ReadonlyMap<string, Validator>;
  /** The arguments the handler gets: the input schema's defaults filled in (derived on first use). */
  readonly withDefaults: (input: unknown) => unknown;
}

export type Projector = Pick<Server, 'projectCallToolResult'>;
export type Abort = Pick<AbortController, 'signal' | 'abort'>;
export type CallResult = CallToolResult | ReturnType<typeof inputRequired>;
export type RunTool = (tool: PreparedTool, name: string, input: unknown, context: ToolContext<Record<string, unknown>>, abort: Abort, server: Projector) => Promise<CallToolResult | InputRequiredReply>;
export type StartTask = (tool: PreparedTool, name: string, input: unknown, task: TaskSettings, ctx: ServerContext, server: Projector, binding: () => string, state: string | undefined) => Promise<ReturnType<typeof inputRequired>>;
