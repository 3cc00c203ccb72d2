// A task's outcome across a failover (issue 50). Sentinel and Cluster replicate asynchronously: a master that
// dies right after acknowledging a write takes it along, and the promoted replica shows the task as it was
// before (`working`, until its TTL) — a result reported and then lost. So on those topologies the runner's
// terminal write is followed by WAIT 1 on the connection that wrote it, and the status event goes out only
// once a replica acknowledged it. Until then this instance holds the outcome and the task's owner entry (if it
// dies too, a survivor ends the task through the lease sweep): each further attempt writes the outcome again —
// over what a failover left (`working`, or nothing) or as the same bytes — and WAITs for that write.
// A replica's acknowledgement ends it; so does reading it back after Redis came back from an outage begun
// since (the promoted master's copy is all there is until a replica joins and syncs from it); past HOLD_MS it
// is accepted with a warning that it is on one node only (no replica answered: a failover now would lose it).
import { logLine } from '../core/log.js';
import type { RedisConnection } from '../scale/redis-connection.js';
import type { RedisLayer } from '../scale/redis-layer.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskRecord } from './store.js';

/** How long one WAIT may block the connection (a replica acknowledges within a round trip when it is there). */
export const REPLICA_WAIT_MS = 200;
/** How long an outcome no replica acknowledged is held and written again before it is accepted as it is. */
export const HOLD_MS = 60_000;
// KEYS[1] = the task key; ARGV[1] = the JSON read; ARGV[2] = the patched JSON. 1 = written, 0 = changed or gone.
export const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 end return 0`;

export interface ConfirmDeps {
  /** Its `failover` (Sentinel, Cluster) asks for confirmation; otherwise the outcome is published at once. */
  readonly layer: () => RedisLayer | undefined;
  readonly keyOf: (taskId: string) => string;
  readonly read: (taskId: string) => Promise<{ json: string; record: TaskRecord } | undefined>;
  readonly command: <T>(run: (c: RedisConnection) => Promise<T>) => Promise<T>;
  readonly entry: (record: TaskRecord) => { json: string; expiresAt: number };
  readonly publish: (event: TaskEvent) => Promise<void>;
  readonly closed: () => boolean;
}

/** Resolves with the task's final record once it is as durable as the topology allows, its status published. */
export async function confirmOutcome(d: ConfirmDeps, record: TaskRecord, holdMs = HOLD_MS): Promise<TaskRecord> {
  const final = d.layer()?.failover === true ? await replicated(d, record, holdMs) : record;
  await d.publish({ type: 'status', record: final }).catch(() => {}); // pollers see the record anyway
  return final;
}

async function replicated(d: ConfirmDeps, record: TaskRecord, holdMs: number): Promise<TaskRecord> {
  const key = d.keyOf(record.taskId);
  const { json: ours, expiresAt } = d.entry(record);
  const since = Date.now();
  for (let attempt = 0, pause = 50; !d.closed() && Date.now() < expiresAt; attempt++, pause = Math.min(pause * 2, 1_000)) {
    try {
      // The first WAIT covers the runner's own write; later ones the write made just before them.
      if (attempt > 0) {
        const theirs = await writeAgain(d, key, record.taskId, ours, expiresAt);
        if (theirs !== undefined) return theirs;
      }
      if ((await d.command((c) => c.wait(key, 1, REPLICA_WAIT_MS))) >= 1) return record;
      if (attempt > 0 && (d.layer()?.recoveredAt() ?? 0) > since) return record;
    } catch {
      // Redis down (a failover under way): try again once it answers.
    }
    if (Date.now() - since >= holdMs) {
      logLine('warn', `task ${record.taskId}: no replica acknowledged its ${record.status} outcome within ${holdMs} ms; it is on the master only (a failover now would lose it)`, { component: 'tasks' });
      return record;
    }
    await new Promise((r) => setTimeout(r, pause).unref());
  }
  return record;
}

/** Writes the outcome again; another terminal record found there (ended elsewhere after a rollback) is returned instead. */
async function writeAgain(d: ConfirmDeps, key: string, taskId: string, ours: string, expiresAt: number): Promise<TaskRecord | undefined> {
  const current = await d.read(taskId);
  if (current !== undefined && current.json !== ours && TERMINAL_STATUSES.has(current.record.status)) return current.record;
  if (current === undefined) await d.command((c) => c.set(key, ours, { condition: 'NX', expiration: { type: 'PXAT', value: expiresAt } }));
  else await d.command((c) => c.eval(COMPARE_AND_SET, { keys: [key], arguments: [current.json, ours] }));
  return undefined;
}
