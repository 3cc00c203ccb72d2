// Owner leases in Redis (TaskLiveness): one key per instance, `<prefix>:worker:<id>`, set with PX leaseMs and
// renewed well before it lapses; one hash, `<prefix>:owners`, task id → the id of the instance running it.
// A task is lost when its owner's key is gone; claimLost runs as one Lua script, so of several surviving
// instances sweeping at once exactly one claims each lost task (the hash then names the claimer).
// Everything goes through EVAL, the one generic command the connection interface has. The script builds
// worker keys from the hash's values: fine on one Redis (or a primary with replicas), not on Redis Cluster.
import type { RedisConnection } from '../scale/redis-connection.js';
import type { TaskLiveness } from './store.js';

// KEYS[1] = owners hash; ARGV[1] = this worker's id; ARGV[2] = the worker key prefix. → the claimed task ids.
const CLAIM_LOST = `local out = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local w = all[i + 1]
  if w ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. w) == 0 then
    redis.call('HSET', KEYS[1], all[i], ARGV[1])
    out[#out + 1] = all[i]
  end
end
return out`;
const HSET = `return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])`;
// Releases only a task this worker still owns (another instance may have claimed it meanwhile).
const HDEL_OWN = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0`;
const DEL = `return redis.call('DEL', KEYS[1])`;

export function redisTaskLiveness(client: () => Promise<RedisConnection>, prefix: string, workerId: string): TaskLiveness {
  const owners = `${prefix}:owners`;
  const workers = `${prefix}:worker:`;
  return {
    async renew(leaseMs) {
      await (await client()).set(workers + workerId, String(Date.now()), { expiration: { type: 'PX', value: Math.max(1, Math.round(leaseMs)) } });
    },
    async retire() {
      await (await client()).eval(DEL, { keys: [workers + workerId], arguments: [] });
    },
    async own(taskId) {
      await (await client()).eval(HSET, { keys: [owners], arguments: [taskId, workerId] });
    },
    async release(taskId) {
      await (await client()).eval(HDEL_OWN, { keys: [owners], arguments: [taskId, workerId] });
    },
    async claimLost() {
      const out = await (await client()).eval(CLAIM_LOST, { keys: [owners], arguments: [workerId, workers] });
      return Array.isArray(out) ? out.filter((t): t is string => typeof t === 'string') : [];
    },
  };
}
