// notifications/tasks on subscriptions/listen (SEP-2663, optional for servers). SDK 2.4.0's listen router
// knows only the four list/resource change kinds, so a listen request that asks for `taskIds` is served
// here instead: the acknowledgement names the tasks it will report (the caller's, still live), each one's
// current DetailedTask follows at once, then one notification per status change, from any instance (the
// store's status events). The other kinds in the same filter are honored from the server's event bus, as
// the SDK would.
import type { ServerCapabilities, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { TaskStore } from './store.js';
import { detailedTask, TASKS_EXTENSION } from './wire.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface ListenFilter {
  readonly taskIds?: unknown;
  readonly toolsListChanged?: unknown;
  readonly promptsListChanged?: unknown;
  readonly resourcesListChanged?: unknown;
  readonly resourceSubscriptions?: unknown;
}

export interface TaskListenContext {
  readonly store: TaskStore;
  readonly bus: ServerEventBus | undefined;
  readonly capabilities: ServerCapabilities;
  /** The caller's owner key ('' without auth): only its own tasks are reported. */
  readonly owner: string;
  readonly keepAliveMs: number;
}

/** The Response for a listen request with `notifications.taskIds`; undefined for any other message (the SDK serves it). */
export async function serveTaskListen(body: unknown, request: Request, context: TaskListenContext): Promise<Response | undefined> {
  const msg = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { notifications?: ListenFilter; _meta?: Record<string, unknown> } } | null;
  if (typeof msg !== 'object' || msg === null || msg.jsonrpc !== '2.0' || msg.method !== 'subscriptions/listen' || msg.id === undefined) return undefined;
  const filter = msg.params?.notifications;
  if (typeof filter !== 'object' || filter === null || !Array.isArray(filter.taskIds)) return undefined;
  // Leave every header and envelope problem to the SDK's own ladder.
  const version = msg.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof version !== 'string' || request.headers.get('mcp-protocol-version')?.trim() !== version || request.headers.get('mcp-method')?.trim() !== 'subscriptions/listen') return undefined;
  const id = msg.id;
  const caps = msg.params?._meta?.['io.modelcontextprotocol/clientCapabilities'] as { extensions?: Record<string, unknown> } | undefined;
  if (caps?.extensions === undefined || !Object.hasOwn(caps.extensions, TASKS_EXTENSION)) {
    return Response.json(
      { jsonrpc: '2.0', id, error: { code: -32021, message: `Task notifications need the ${TASKS_EXTENSION} extension`, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } },
      { status: 400 },
    );
  }
  const wanted = [...new Set(filter.taskIds.filter((t): t is string => typeof t === 'string'))].slice(0, 1000);
  const records = (await Promise.all(wanted.map((t) => context.store.get(t)))).filter((r) => r !== undefined && (r.owner ?? '') === context.owner);
  const taskIds = new Set(records.map((r) => r!.taskId));
  const honored = honoredKinds(filter, context.capabilities);
  const encoder = new TextEncoder();
  let closed = false;
  const cleanups: (() => void)[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (method: string, params: Record<string, unknown>) => {
        if (closed) return;
        controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: { [SUBSCRIPTION_ID]: id } } })}\n\n`));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        for (const c of cleanups) c();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      send('notifications/subscriptions/acknowledged', { notifications: { ...honored.ack, taskIds: [...taskIds] } });
      for (const r of records) send('notifications/tasks', detailedTask(r!));
      cleanups.push(
        context.store.subscribe((event) => {
          if (event.type === 'status' && taskIds.has(event.record.taskId)) send('notifications/tasks', detailedTask(event.record));
        }),
      );
      if (context.bus !== undefined && honored.accepts !== undefined) {
        const accepts = honored.accepts;
        cleanups.push(context.bus.subscribe((event) => {
          const note = accepts(event);
          if (note !== undefined) send(note.method, note.params);
        }));
      }
      if (context.keepAliveMs > 0) {
        const timer = setInterval(() => !closed && controller.enqueue(encoder.encode(': keepalive\n\n')), context.keepAliveMs);
        timer.unref();
        cleanups.push(() => clearInterval(timer));
      }
      request.signal.addEventListener('abort', close, { once: true });
    },
    cancel() {
      closed = true;
      for (const c of cleanups) c();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

/** The list/resource kinds of the same filter the server can deliver (as the SDK's router honors them). */
function honoredKinds(filter: ListenFilter, caps: ServerCapabilities): { ack: Record<string, unknown>; accepts?: (e: ServerEvent) => { method: string; params: Record<string, unknown> } | undefined } {
  const ack: Record<string, unknown> = {};
  if (filter.toolsListChanged === true && caps.tools?.listChanged === true) ack.toolsListChanged = true;
  if (filter.promptsListChanged === true && caps.prompts?.listChanged === true) ack.promptsListChanged = true;
  if (filter.resourcesListChanged === true && caps.resources?.listChanged === true) ack.resourcesListChanged = true;
  const uris = Array.isArray(filter.resourceSubscriptions) && caps.resources?.subscribe === true ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string') : [];
  if (uris.length > 0) ack.resourceSubscriptions = uris;
  if (Object.keys(ack).length === 0) return { ack };
  return {
    ack,
    accepts(e) {
      if (e.kind === 'tools_list_changed' && ack.toolsListChanged) return { method: 'notifications/tools/list_changed', params: {} };
      if (e.kind === 'prompts_list_changed' && ack.promptsListChanged) return { method: 'notifications/prompts/list_changed', params: {} };
      if (e.kind === 'resources_list_changed' && ack.resourcesListChanged) return { method: 'notifications/resources/list_changed', params: {} };
      if (e.kind === 'resource_updated' && uris.includes(e.uri)) return { method: 'notifications/resources/updated', params: { uri: e.uri } };
      return undefined;
    },
  };
}
