// tasks/get, tasks/update, tasks/cancel on the SDK's low-level Server. SDK 2.4.0 has no server side for
// the extension; it lets these names through its method gate when registered with a custom params schema.
// tasks/result and tasks/list are left unregistered: the SDK answers them -32601 on 2026-07-28.
import { ProtocolError, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { TERMINAL_STATUSES, type TaskRecord, type TaskStore } from './store.js';
import { handlerKey } from './input-keys.js';
import { declaresTasks, detailedTask, missingTasksCapability } from './wire.js';

const INVALID_PARAMS = -32602;

export interface TaskMethodHooks {
  readonly store: TaskStore;
  /** Who is asking (the same key the task was created with); '' without auth. */
  readonly ownerOf: (ctx: ServerContext) => string;
  /** A malformed answer to one of the tool's own `elicit` keys (-32602), as on a tools/call retry. */
  readonly answerProblem: (toolName: string, responses: Record<string, unknown>) => { key: string; message: string } | undefined;
  /** Runs around each of these requests when telemetry or the access log is on (their span, their line). */
  readonly observe?: (method: string, ctx: ServerContext, run: () => Promise<unknown>) => Promise<unknown>;
}

interface TaskParams {
  readonly taskId: string;
}

/**
 * A hand-written Standard Schema (the SDK's custom-method contract) for `{ taskId: string }`. tasks/update's
 * `inputResponses` is lifted out of params by the SDK (as on any 2026-07-28 request): it arrives in
 * `ctx.mcpReq.inputResponses`.
 */
const PARAMS: StandardSchemaV1<unknown, TaskParams> = {
  '~standard': {
    version: 1,
    vendor: 'mcpgen',
    validate(value: unknown) {
      const v = value as { taskId?: unknown } | undefined;
      if (typeof v !== 'object' || v === null || typeof v.taskId !== 'string') return { issues: [{ message: 'params.taskId must be a string', path: ['taskId'] }] };
      return { value: v as TaskParams };
    },
  },
};

export function registerTaskMethods(server: Server, hooks: TaskMethodHooks): void {
  const { store } = hooks;
  /** The caller's task: -32021 without the extension, -32602 when unknown, expired or someone else's. */
  async function taskOf(method: string, taskId: string, ctx: ServerContext): Promise<TaskRecord> {
    if (!declaresTasks(ctx)) throw missingTasksCapability(method);
    const record = await store.get(taskId);
    const owner = hooks.ownerOf(ctx);
    // A task the store lost (a Redis failover or restart since) is "may have been lost", not a plain unknown.
    const note = record === undefined ? store.lossNote?.() : undefined;
    if (record === undefined || (record.owner ?? '') !== owner) throw new ProtocolError(INVALID_PARAMS, `Unknown task: ${taskId}${note ? ` (${note})` : ''}`, { taskId });
    return record;
  }

  const observe = hooks.observe;
  const on = (method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', handler: (params: TaskParams, ctx: ServerContext) => Promise<object>): void => {
    const run = observe === undefined ? handler : (params: TaskParams, ctx: ServerContext) => observe(method, ctx, () => handler(params, ctx)) as Promise<object>;
    server.setRequestHandler(method as 'tasks/get', { params: PARAMS }, run as never);
  };

  on('tasks/get', async (params, ctx) => detailedTask(await taskOf('tasks/get', params.taskId, ctx)));

  on('tasks/update', async (params, ctx) => {
    const record = await taskOf('tasks/update', params.taskId, ctx);
    if (record.status !== 'input_required') return {};
    // Only keys still outstanding count; others (never issued, answered, superseded) are ignored.
    const outstanding = { ...(record.inputRequests ?? {}) };
    const accepted: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
      if (!Object.hasOwn(outstanding, key)) continue;
      accepted[key] = value;
      delete outstanding[key];
    }
    if (Object.keys(accepted).length === 0) return {};
    const bad = hooks.answerProblem(record.toolName, Object.fromEntries(Object.entries(accepted).map(([k, v]) => [handlerKey(k), v])));
    if (bad !== undefined) throw new ProtocolError(INVALID_PARAMS, bad.message, { inputResponse: bad.key });
    const done = Object.keys(outstanding).length === 0;
    // The answered keys leave inputRequests at once, so the next tasks/get shows only what is still pending.
    const updated = await store.update(record.taskId, { inputRequests: outstanding, ...(done ? { status: 'working' as const } : {}) });
    if (updated !== undefined) await store.publish({ type: 'input', taskId: record.taskId, responses: accepted });
    return {};
  });

  on('tasks/cancel', async (params, ctx) => {
    const record = await taskOf('tasks/cancel', params.taskId, ctx);
    if (TERMINAL_STATUSES.has(record.status)) return {};
    // Marked at once (the status event stops the handler wherever it runs); a handler that finishes
    // anyway cannot overwrite a terminal status.
    await store.update(record.taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client', inputRequests: {} });
    await store.publish({ type: 'cancel', taskId: record.taskId });
    return {};
  });
}
