// Task tools (tasks/runner.ts): starting a task from tools/call, a task's rounds around the handler, and
// re-running a task whose worker was lost.
import { buildElicit, type RequestContext, type ToolContext } from '../core/context.js';
import type { TaskRetry } from '../core/definition.js';
import { inputRequiredReply, isInputRequiredReply, type InputRequiredReply } from '../core/replies.js';
import type { TaskResume, TaskRunner, TaskStep } from '../tasks/runner.js';
import { TaskCreated } from '../tasks/server-class.js';
import { createTaskResult } from '../tasks/wire.js';
import type { Dispatch } from './options.js';
import { principalKeyOf } from '../auth/auth.js';
import { principalKey, requestContext } from './request-context.js';
import type { PreparedTool, Projector, RunTool, StartTask } from './tool-types.js';
/**
 * tools/call of a task tool from a client that declared the extension: MRTR rounds first for the keys
 * the spec gathers before the task (`beforeTask`), then the task is created and the CreateTaskResult
 * returned (thrown past the SDK's CallToolResult check: TaskAwareServer). The handler runs in the
 * background, in rounds (tasks/runner.ts).
 */
export function taskStarter(d: Dispatch, runTool: RunTool, taskRunner: TaskRunner | undefined): StartTask {
  return async (tool, name, input, task, ctx, server, binding, state) => {
    const given = ctx.mcpReq.inputResponses ?? {};
    const missing = (task.beforeTask ?? []).filter((key) => !Object.hasOwn(given, key));
    if (missing.length > 0) {
      const asks = buildElicit(tool.spec.elicit, undefined);
      const inputRequests = Object.assign({}, ...missing.map((key) => asks[key]!.ask().inputRequests)) as InputRequiredReply['inputRequests'];
      return d.inputRequiredResult(inputRequiredReply(inputRequests), binding);
    }
    const base = requestContext(ctx, ctx.mcpReq.signal, d.notifier, state);
    const owner = principalKey(ctx);
    const retry = retryOf(tool);
    const record = await taskRunner!.start({
      toolName: name,
      ...(owner !== '' ? { owner } : {}),
      settings: task,
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: state,
      step: taskStep(runTool, tool, name, input, base, server),
      // What running it elsewhere needs (a worker, or a survivor when the tool may run again: max > 0), with
      // the caller's principal (never the token) so the handler sees the same ctx.auth there.
      replay: { arguments: input, ...(ctx.mcpReq.inputResponses !== undefined ? { inputResponses: ctx.mcpReq.inputResponses } : {}), ...(state !== undefined ? { requestState: state } : {}), clientCapabilities: base.clientCapabilities, ...(base.auth !== undefined ? { principal: base.auth } : {}), max: retry?.max ?? 0, backoffMs: retry?.backoffMs ?? 0 },
    });
    throw new TaskCreated(createTaskResult(record));
  };
}

/** How often a lost task of this tool may run again: its `task.retry`, or once for an idempotent tool. */
function retryOf(tool: PreparedTool): TaskRetry | undefined {
  const retry = tool.spec.task?.retry ?? (tool.spec.definition.annotations?.idempotentHint === true ? { max: 1 } : undefined);
  return retry !== undefined && retry.max > 0 ? retry : undefined;
}

/** The handler as a task's rounds (tasks/runner.ts), around the context of the call that created the task. */
function taskStep(runTool: RunTool, tool: PreparedTool, name: string, input: unknown, base: RequestContext, server: Projector): TaskStep {
  return async (round) => {
    const abort = new AbortController();
    round.signal.addEventListener('abort', () => abort.abort(round.signal.reason), { once: true });
    // The spread copies own fields; httpRequest is a getter of the context's class (request-context.ts).
    const context: ToolContext<Record<string, unknown>> = {
      ...base,
      ...(base.httpRequest !== undefined ? { httpRequest: base.httpRequest } : {}),
      signal: abort.signal,
      inputResponses: round.inputResponses,
      requestState: round.requestState,
      elicit: buildElicit(tool.spec.elicit, round.inputResponses as Record<string, unknown> | undefined),
      // Progress inside a task is the task's statusMessage (SEP-2663 sends no progress for tasks).
      progress: (progress, total, message) => round.statusMessage(message ?? (total !== undefined ? `${progress}/${total}` : `${progress}`)),
    };
    const out = await runTool(tool, name, input, context, abort, server);
    return isInputRequiredReply(out)
      ? { kind: 'input', inputRequests: out.inputRequests, ...(out.requestState !== undefined ? { requestState: out.requestState } : {}) }
      : { kind: 'result', result: out as Record<string, unknown> };
  };
}

/**
 * Running a stored task (on a worker, or again after its worker was lost): the stored arguments, answers and
 * caller (ctx.auth), and a context like the original call's minus what only a live request has (its HTTP
 * request, its id: `task:<taskId>` here). The principal is the one verified when the task was created: its
 * token may have expired since, the task was authorized then.
 */
export function taskResumer(d: Dispatch, tools: ReadonlyMap<string, PreparedTool>, runTool: RunTool, server: () => Projector): TaskResume {
  return (record) => {
    const tool = tools.get(record.toolName);
    const replay = record.replay;
    if (tool === undefined || tool.spec.task === undefined || replay === undefined) return undefined;
    // A task of an authenticated caller runs only as that caller: its stored principal must be its owner.
    if ((record.owner ?? '') !== principalKeyOf(replay.principal)) return undefined;
    const base: RequestContext = {
      signal: new AbortController().signal,
      requestId: `task:${record.taskId}`,
      meta: {},
      clientCapabilities: replay.clientCapabilities ?? {},
      inputResponses: replay.inputResponses,
      requestState: replay.requestState,
      inputRequired: inputRequiredReply,
      notify: d.notifier,
      ...(replay.principal !== undefined ? { auth: replay.principal } : {}),
    };
    return {
      toolName: record.toolName,
      settings: tool.spec.task,
      inputResponses: replay.inputResponses,
      requestState: replay.requestState,
      step: taskStep(runTool, tool, record.toolName, replay.arguments, base, server()),
    };
  };
}
