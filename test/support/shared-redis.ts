// One set of Redis topologies for the whole interop run (issue 50): a standalone server, Sentinel (1 master,
// 1 replica, 3 sentinels) and a 6-node Cluster, each started by the first test file that asks for it and used
// by every later one — starting a cluster takes seconds, and the suites run on each topology. The processes
// are detached and listed in .tmp/redis-shared/<name>.json; shared-redis-teardown.ts (the interop config's
// global setup) stops them after the run. Tests keep apart by flushing at the start of each block (files
// run one at a time). Tests that kill a master start a topology of their own (redis-topologies.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RedisSettings } from '../../packages/runtime/src/server/index.js';
import { startRedis } from './redis.js';
import { redisCli, startDetached, startRedisCluster, startRedisSentinel } from './redis-topologies.js';

export const SHARED_DIR = resolve(import.meta.dirname, '../../.tmp/redis-shared');
export const TOPOLOGIES = ['standalone', 'sentinel', 'cluster'] as const;
export type TopologyName = (typeof TOPOLOGIES)[number];

export interface SharedTopology {
  readonly name: TopologyName;
  /** The settings in code (openRedis) and the same as a generated main.js's environment. */
  readonly settings: RedisSettings;
  readonly env: Record<string, string>;
  /** Data ports (masters and replicas) and every pid, for flushing and for the teardown. */
  readonly ports: readonly number[];
  readonly pids: readonly number[];
}

const nodes = (list: string) => list.split(',').map((a) => ({ host: a.split(':')[0]!, port: Number(a.split(':')[1]) }));

async function start(name: TopologyName): Promise<SharedTopology> {
  if (name === 'standalone') {
    const r = await startRedis({ detached: true });
    return { name, settings: { topology: 'standalone', url: r.url }, env: { REDIS_URL: r.url }, ports: [r.port], pids: [r.pid] };
  }
  if (name === 'sentinel') {
    const s = await startDetached(() => startRedisSentinel('shared'));
    const all = [s.master, s.replica, ...s.sentinels];
    return { name, settings: { topology: 'sentinel', sentinels: nodes(s.addresses), masterName: 'shared' }, env: { MCPGEN_REDIS_SENTINELS: s.addresses, MCPGEN_REDIS_MASTER_NAME: 'shared' }, ports: [s.master.port, s.replica.port], pids: all.map((n) => n.child.pid!) };
  }
  const c = await startDetached(() => startRedisCluster());
  return { name, settings: { topology: 'cluster', nodes: nodes(c.seeds) }, env: { MCPGEN_REDIS_CLUSTER: c.seeds }, ports: c.nodes.map((n) => n.port), pids: c.nodes.map((n) => n.child.pid!) };
}

const alive = (t: SharedTopology) => t.pids.every((pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
});

/** The run's topology `name`, started now if no earlier file did, flushed (every master: FLUSHALL) and its command counts reset. */
export async function sharedTopology(name: TopologyName): Promise<SharedTopology> {
  const file = join(SHARED_DIR, `${name}.json`);
  let t: SharedTopology | undefined;
  try {
    t = JSON.parse(readFileSync(file, 'utf8')) as SharedTopology;
  } catch {
    t = undefined;
  }
  if (t === undefined || !alive(t)) {
    t = await start(name);
    mkdirSync(SHARED_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(t));
  }
  // Replicas refuse FLUSHALL (READONLY): flushing every node flushes every master, which replicates it.
  for (const port of t.ports) redisCli(port, 'FLUSHALL');
  for (const port of t.ports) redisCli(port, 'CONFIG', 'RESETSTAT'); // command counts start from here too
  return t;
}
