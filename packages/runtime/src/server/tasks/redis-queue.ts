// The worker queue in Redis (TaskQueue, store.ts): one list, `<prefix>:queue`, of task ids. A front instance
// writes a task's record and pushes its id in one Lua script; a worker pops an id and records itself as the
// task's owner (the `<prefix>:owners` hash of redis-liveness.ts) in one script too, so a task is either queued
// or owned, never neither: a worker that dies after taking it is found by the owner sweep, a queued task waits
// (until its TTL) for a worker. Like redis-liveness.ts, built on EVAL and meant for one Redis, not Cluster.
import type { RedisConnection } from '../scale/redis-connection.js';
import type { TaskEvent, TaskQueue, TaskRecord } from './store.js';

// KEYS: task key, queue. ARGV: record JSON, expiry (unix ms), task id. 1 = created and queued, 0 = existed.
const CREATE_QUEUED = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2]) then redis.call('RPUSH', KEYS[2], ARGV[3]) return 1 end return 0`;
// KEYS: owners hash, queue. ARGV: task id. The task leaves the hash (nobody owns a queued task) and joins the queue.
const REQUEUE = `redis.call('HDEL', KEYS[1], ARGV[1]) return redis.call('RPUSH', KEYS[2], ARGV[1])`;
// KEYS: queue, owners hash. ARGV: this worker's id. → the task id taken, or nil.
const TAKE = `local t = redis.call('LPOP', KEYS[1]) if t then redis.call('HSET', KEYS[2], t, ARGV[1]) end return t`;

export interface RedisQueueParts {
  readonly prefix: string;
  readonly workerId: string;
  readonly command: <T>(run: (c: RedisConnection) => Promise<T>) => Promise<T>;
  /** The stored form of a record: its JSON and when Redis expires it. */
  readonly entry: (record: TaskRecord) => { json: string; expiresAt: number };
  readonly keyOf: (taskId: string) => string;
  readonly publish: (event: TaskEvent) => Promise<void>;
}

export function redisTaskQueue(parts: RedisQueueParts): TaskQueue {
  const queue = `${parts.prefix}:queue`;
  const owners = `${parts.prefix}:owners`;
  // Wakes idle workers at once; a lost wake-up only costs the workers' poll interval.
  const wake = (taskId: string) => parts.publish({ type: 'queued', taskId }).catch(() => {});
  return {
    async createQueued(record) {
      const { json, expiresAt } = parts.entry(record);
      const args = { keys: [parts.keyOf(record.taskId), queue], arguments: [json, String(expiresAt), record.taskId] };
      const written = await parts.command((c) => c.eval(CREATE_QUEUED, args));
      if (written !== 1) throw new Error(`task ${record.taskId} already exists`);
      await wake(record.taskId);
    },
    async requeue(taskId) {
      await parts.command((c) => c.eval(REQUEUE, { keys: [owners, queue], arguments: [taskId] }));
      await wake(taskId);
    },
    async take() {
      const taken = await parts.command((c) => c.eval(TAKE, { keys: [queue, owners], arguments: [parts.workerId] }));
      return typeof taken === 'string' ? taken : undefined;
    },
  };
}
