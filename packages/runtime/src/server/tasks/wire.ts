// The tasks extension's wire shapes (SEP-2663), built from a stored TaskRecord: the CreateTaskResult a
// tools/call answers, the DetailedTask tasks/get answers (and notifications/tasks carries), and the
// negotiation that gates all of it on the request's own client capabilities.
import { MissingRequiredClientCapabilityError, type ServerContext } from '@modelcontextprotocol/server';
import type { TaskRecord } from './store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The Task fields every shape shares; never `requestState`, never the owner or tool name. */
function taskFields(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    ...(record.pollIntervalMs !== undefined ? { pollIntervalMs: record.pollIntervalMs } : {}),
  };
}

/** tools/call's answer when it became a task: flat `Result & Task`, nothing inlined. */
export function createTaskResult(record: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(record) };
}

/** tasks/get: the task with what its status carries inlined (result, error or the pending input requests). */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const out = taskFields(record);
  if (record.status === 'completed' && record.result !== undefined) out.result = record.result;
  if (record.status === 'failed' && record.error !== undefined) out.error = record.error;
  if (record.status === 'input_required') out.inputRequests = record.inputRequests ?? {};
  return out;
}

/** Whether this request's client capabilities list the tasks extension (negotiated per request, SEP-2575). */
export function declaresTasks(ctx: ServerContext): boolean {
  const caps = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'];
  const extensions = typeof caps === 'object' && caps !== null ? (caps as { extensions?: unknown }).extensions : undefined;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** -32021 naming the tasks extension in `data.requiredCapabilities`. */
export function missingTasksCapability(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never, `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`);
}
