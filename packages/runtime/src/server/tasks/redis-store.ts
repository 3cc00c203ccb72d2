// A TaskStore shared by every instance of a server through Redis, so a task created on one instance can be
// polled, answered and cancelled through any other (io.modelcontextprotocol/tasks behind a balancer).
//
// Records: one string key per task holding the record's JSON, written with SET … NX PXAT createdAt+ttlMs, so Redis
// expires it on time for every instance at once. create() resolves after Redis acknowledged the SET: from then
// on every instance reads it (durable as far as the Redis deployment is: without persistence a Redis restart
// forgets every task, and tasks/get answers "not found" like for an expired one).
// Updates: read, patch in JS, then a Lua compare-and-set that writes only if the stored JSON is still what was
// read (KEEPTTL keeps the expiry), retried on conflict; a terminal record is never patched. Patching in JS rather
// than in Lua keeps results byte-exact (Lua's cjson turns [] into {} and rounds numbers to 14 digits).
// Events (status, cancel, input): delivered at once to this instance's listeners, then published on a channel
// that every instance subscribes to; each instance skips its own echo, so a listener hears an event once.
// Owner leases (who runs which task, for finding tasks whose instance died): redis-liveness.ts.
// Redis down: create/get/update/publish reject at once (no offline queue) — the caller answers an error rather
// than a task nobody else can see; the connections come back by themselves and resubscribe. The connections
// open on first use (a server without task tools never opens them).
import { randomUUID } from 'node:crypto';
import { describeRedisError, type RedisConnection } from '../scale/redis-connection.js';
import { useRedis, type RedisLayer, type RedisUseOptions } from '../scale/redis-layer.js';
import { COMPARE_AND_SET, confirmOutcome } from './redis-confirm.js';
import { redisTaskLiveness } from './redis-liveness.js';
import { redisTaskQueue } from './redis-queue.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskPatch, type TaskRecord, type TaskStatus, type TaskStore, type TaskUpdateOptions } from './store.js';

/** Wire format version of records and channel messages; anything of another version is ignored. */
export const REDIS_TASK_FORMAT_VERSION = 1;
/** A record (with its result) or an event larger than this is refused rather than stored. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
const MAX_CAS_ATTEMPTS = 32;
const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);


export interface RedisTaskStoreOptions extends RedisUseOptions {
  /**
   * Key and channel prefix. Default `mcpgen:tasks:<serverName>` (or `mcpgen:tasks`), so servers can share a Redis.
   * On a cluster it is a hash tag (`{mcpgen:tasks:<serverName>}`): the scripts touch a task, the queue and the
   * owners together, so every key of one server's tasks lives in one slot.
   */
  readonly prefix?: string;
  readonly serverName?: string;
}

/**
 * Redis unreachable, refusing the password or failing a command: the error a task request answers with
 * (-32603 naming the component), instead of node-redis' bare "The client is offline".
 */
export class TaskStoreUnavailable extends Error {
  constructor(detail: string | undefined) {
    super(`task store (Redis) unavailable${detail ? `: ${detail}` : ''}`);
    this.name = 'TaskStoreUnavailable';
  }
}

export interface RedisTaskStore extends TaskStore {
  /** Resolves once both connections are up and the event channel is subscribed (tests, readiness probes). */
  ready(): Promise<void>;
}

export async function createRedisTaskStore(options: RedisTaskStoreOptions): Promise<RedisTaskStore> {
  const name = options.prefix ?? (options.serverName !== undefined ? `mcpgen:tasks:${options.serverName}` : 'mcpgen:tasks');
  const prefix = options.redis?.topology === 'cluster' ? `{${name}}` : name;
  const channel = `${prefix}:events`;
  const keyOf = (taskId: string) => `${prefix}:task:${taskId}`;
  const origin = randomUUID();
  let closed = false;
  const listeners = new Set<(event: TaskEvent) => void>();

  const deliver = (event: TaskEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not keep the event from the others.
      }
    }
  };
  const { open, client, command, close, layer } = lazyConnection(options, channel, (message) => {
    const event = parseTaskMessage(message, origin);
    if (event !== undefined && event !== 'own') deliver(event);
  });

  const read = async (taskId: string): Promise<{ json: string; record: TaskRecord } | undefined> => {
    const json = await command((c) => c.get(keyOf(taskId)));
    if (json === null) return undefined;
    const record = parseRecord(json);
    // Redis expires the key on time; the check covers clocks between instances and a record of another format.
    if (record === undefined || record.taskId !== taskId || expired(record)) return undefined;
    return { json, record };
  };
  const publish = async (event: TaskEvent) => {
    deliver(event);
    const message = JSON.stringify({ v: REDIS_TASK_FORMAT_VERSION, from: origin, event });
    if (message.length > MAX_ENTRY_BYTES) throw new Error(`task event too large (${message.length} bytes)`);
    await command((c) => c.publish(channel, message));
  };

  return {
    async create(record) {
      const { json, expiresAt } = entryOf(record);
      const written = await command((c) => c.set(keyOf(record.taskId), json, { condition: 'NX', expiration: { type: 'PXAT', value: expiresAt } }));
      if (written !== 'OK') throw new Error(`task ${record.taskId} already exists`);
    },
    async get(taskId) {
      return (await read(taskId))?.record;
    },
    update: (taskId, patch, options) => updateRecord({ read, command, publish, keyOf }, taskId, patch, options),
    publish,
    lossNote: () => lossNote(layer()?.recoveredAt()),
    confirm: (record) => confirmOutcome({ layer, keyOf, read, command, entry: entryOf, publish, closed: () => closed }, record),
    liveness: redisTaskLiveness(client, prefix, origin),
    queue: redisTaskQueue({ prefix, workerId: origin, command, entry: entryOf, keyOf, publish }),
    subscribe(listener) {
      open();
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    ready: () => open().connected,
    async close() {
      closed = true;
      listeners.clear();
      await close();
    },
  };
}

interface UpdateDeps {
  readonly read: (taskId: string) => Promise<{ json: string; record: TaskRecord } | undefined>;
  readonly command: <T>(run: (c: RedisConnection) => Promise<T>) => Promise<T>;
  readonly publish: (event: TaskEvent) => Promise<void>;
  readonly keyOf: (taskId: string) => string;
}

/** TaskStore.update: read, patch in JS, compare-and-set; retried when another instance wrote in between. */
async function updateRecord(d: UpdateDeps, taskId: string, patch: TaskPatch, options: TaskUpdateOptions | undefined): Promise<TaskRecord | undefined> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await d.read(taskId);
    if (current === undefined || TERMINAL_STATUSES.has(current.record.status)) return undefined;
    const next: TaskRecord = { ...current.record, ...patch, lastUpdatedAt: new Date().toISOString() };
    const json = JSON.stringify({ v: REDIS_TASK_FORMAT_VERSION, record: next });
    if (json.length > MAX_ENTRY_BYTES) throw new Error(`task record too large (${json.length} bytes)`);
    const written = await d.command((c) => c.eval(COMPARE_AND_SET, { keys: [d.keyOf(taskId)], arguments: [current.json, json] }));
    if (written !== 1) continue; // another instance wrote in between (or it expired): read again
    if (patch.status !== undefined && patch.status !== current.record.status && options?.quiet !== true) {
      // The record is durable already; a lost status event only delays notifications, pollers still see it.
      await d.publish({ type: 'status', record: next }).catch(() => {});
    }
    return next;
  }
  throw new Error(`task ${taskId}: too many concurrent updates`);
}

// Connections open on first use: serverOptionsFromEnv hands every server a store when Redis is configured, but
// only a server with task tools uses it (its task runner subscribes when the server is built).
function lazyConnection(options: RedisTaskStoreOptions, channel: string, onMessage: (message: string) => void) {
  let used: { layer: RedisLayer; release: () => Promise<void>; connected: Promise<void> } | undefined;
  const open = () => {
    if (used !== undefined) return used;
    const { layer, release } = useRedis(options, 'redis task store');
    // Subscribed once Redis answers; node-redis resubscribes by itself after a reconnection or a failover.
    let subscribed: Promise<void> | undefined;
    const subscribe = () =>
      (subscribed ??= layer.subscriber.subscribe(channel, onMessage).catch((e: unknown) => {
        subscribed = undefined; // tried again when Redis answers again
        throw e;
      }));
    layer.subscriber.on('ready', () => void subscribe().catch(() => {}));
    const connected = layer.connected.then(() => subscribe());
    connected.catch(() => {}); // surfaced through ready() and every call; never an unhandled rejection
    return (used = { layer, release, connected });
  };
  /** One command, failing fast while Redis does not answer: TaskStoreUnavailable naming the reason (not node-redis' wording). */
  const command = async <T>(run: (c: RedisConnection) => Promise<T>): Promise<T> => {
    const { layer } = open();
    try {
      return await layer.command(run);
    } catch (e) {
      throw new TaskStoreUnavailable(describeRedisError(e) ?? layer.reason());
    }
  };
  return { open, client: async () => open().layer.commands, command, close: () => used?.release(), layer: () => used?.layer };
}

/** What "unknown task" adds after Redis came back from an outage (at `recoveredAt`): the record may be gone. */
function lossNote(recoveredAt: number | undefined): string | undefined {
  if (recoveredAt === undefined) return undefined;
  return `it may have been lost: Redis was unreachable until ${new Date(recoveredAt).toISOString()} (a failover or restart loses the writes it had not replicated or persisted)`;
}

/** A record as stored: its JSON (size-checked) and when Redis expires it. */
function entryOf(record: TaskRecord): { json: string; expiresAt: number } {
  const json = JSON.stringify({ v: REDIS_TASK_FORMAT_VERSION, record });
  if (json.length > MAX_ENTRY_BYTES) throw new Error(`task record too large (${json.length} bytes)`);
  const expiresAt = Date.parse(record.createdAt) + record.ttlMs;
  if (!Number.isFinite(expiresAt)) throw new Error('task record has no valid createdAt/ttlMs');
  return { json, expiresAt };
}

function expired(record: TaskRecord): boolean {
  return Date.parse(record.createdAt) + record.ttlMs <= Date.now();
}

/** A stored entry as a record, undefined when it is not one of this format. */
export function parseRecord(json: string): TaskRecord | undefined {
  const parsed = parseJson(json);
  if (!isObject(parsed) || parsed.v !== REDIS_TASK_FORMAT_VERSION) return undefined;
  return isTaskRecord(parsed.record) ? parsed.record : undefined;
}

/** A message from the channel as an event, 'own' for this instance's echo, undefined when invalid. */
export function parseTaskMessage(message: string, origin: string): TaskEvent | 'own' | undefined {
  if (typeof message !== 'string' || message.length > MAX_ENTRY_BYTES) return undefined;
  const parsed = parseJson(message);
  if (!isObject(parsed) || parsed.v !== REDIS_TASK_FORMAT_VERSION || typeof parsed.from !== 'string') return undefined;
  const event = parsed.event;
  if (!isObject(event)) return undefined;
  let valid: TaskEvent | undefined;
  if (event.type === 'status' && isTaskRecord(event.record)) valid = { type: 'status', record: event.record };
  else if (event.type === 'cancel' && isTaskId(event.taskId)) valid = { type: 'cancel', taskId: event.taskId };
  else if (event.type === 'input' && isTaskId(event.taskId) && isObject(event.responses)) valid = { type: 'input', taskId: event.taskId, responses: event.responses };
  else if (event.type === 'queued' && isTaskId(event.taskId)) valid = { type: 'queued', taskId: event.taskId };
  if (valid === undefined) return undefined;
  return parsed.from === origin ? 'own' : valid;
}

function isTaskRecord(v: unknown): v is TaskRecord {
  if (!isObject(v)) return false;
  return (
    isTaskId(v.taskId) &&
    typeof v.toolName === 'string' &&
    (v.owner === undefined || typeof v.owner === 'string') &&
    typeof v.status === 'string' &&
    STATUSES.has(v.status) &&
    typeof v.createdAt === 'string' &&
    typeof v.lastUpdatedAt === 'string' &&
    typeof v.ttlMs === 'number' &&
    (v.pollIntervalMs === undefined || typeof v.pollIntervalMs === 'number') &&
    (v.result === undefined || isObject(v.result)) &&
    (v.error === undefined || (isObject(v.error) && typeof v.error.code === 'number' && typeof v.error.message === 'string')) &&
    (v.inputRequests === undefined || isObject(v.inputRequests))
  );
}

function isTaskId(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= 256;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
