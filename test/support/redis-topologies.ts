// The Redis topologies managed Redis runs, started on free loopback ports inside a test and stopped after:
// a Redis Cluster of 6 nodes (3 masters, 3 replicas, made by `redis-cli --cluster create`) and a Sentinel
// deployment (1 master, 1 replica, 3 sentinels). Debian packages redis-server, redis-sentinel and redis-tools
// (scripts/system-deps.mjs installs them). No persistence: a killed master's last writes are what its replica
// had received (asynchronous replication), as on a managed Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './ports.js';

const find = (name: string) => [`/usr/bin/${name}`, `/usr/local/bin/${name}`].find((p) => existsSync(p)) ?? name;

export interface RedisNodeProcess {
  readonly port: number;
  readonly child: ChildProcess;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
}

/** Processes outlive the test file that started them when `detached` (shared-redis.ts: one set per run). */
let detached = false;
export function startDetached<T>(start: () => Promise<T>): Promise<T> {
  detached = true;
  return start().finally(() => void (detached = false));
}

function startNode(args: readonly string[], port: number, program = find('redis-server')): RedisNodeProcess {
  const child = spawn(program, args, { stdio: 'ignore', detached });
  if (detached) child.unref();
  return {
    port,
    child,
    kill: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
  };
}

/** One command through redis-cli (the tests' own admin connection; the server under test uses node-redis). */
export function redisCli(port: number, ...args: string[]): string {
  const r = spawnSync(find('redis-cli'), ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
}

// No delay before a replica's first sync: a replica that never synced cannot be promoted.
const BASE = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--repl-diskless-sync-delay', '0'];

export interface RedisCluster {
  readonly nodes: readonly RedisNodeProcess[];
  /** `127.0.0.1:p1,127.0.0.1:p2,…` (MCPGEN_REDIS_CLUSTER). */
  readonly seeds: string;
  /** The master serving `key`'s slot now. */
  masterOf(key: string): RedisNodeProcess;
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) ports.push(await freePort());
  const nodes = ports.map((port) =>
    startNode([...BASE, '--port', String(port), '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '2000', '--dir', dir], port),
  );
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => ports.every((p) => redisCli(p, 'PING') === 'PONG'));
    const created = spawnSync(find('redis-cli'), ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { encoding: 'utf8', timeout: 60_000 });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await waitFor(() => ports.every((p) => redisCli(p, 'CLUSTER', 'INFO').includes('cluster_state:ok')), 30_000);
    // Every replica in sync with its master: only then can it take over when the master dies.
    await waitFor(() => ports.every((p) => !redisCli(p, 'ROLE').startsWith('slave') || redisCli(p, 'INFO', 'replication').includes('master_link_status:up')), 30_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    nodes,
    seeds: ports.slice(0, 3).map((p) => `127.0.0.1:${p}`).join(','),
    masterOf(key) {
      const live = nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
      const slot = Number(redisCli(live[0]!.port, 'CLUSTER', 'KEYSLOT', key));
      // CLUSTER NODES: `<id> <ip:port@cport> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges…>`.
      for (const line of redisCli(live[0]!.port, 'CLUSTER', 'NODES').split('\n')) {
        const f = line.split(' ');
        if (!f[2]?.includes('master') || f[2].includes('fail') || !f.slice(8).some((r) => inRange(slot, r))) continue;
        const port = Number(f[1]!.split('@')[0]!.split(':')[1]);
        const node = live.find((n) => n.port === port);
        if (node !== undefined) return node;
      }
      throw new Error(`no live master serves the slot of ${key}`);
    },
    stop,
  };
}

function inRange(slot: number, range: string): boolean {
  const [from, to] = range.split('-').map(Number);
  return from !== undefined && slot >= from && slot <= (to ?? from);
}

export interface RedisSentinelDeployment {
  readonly master: RedisNodeProcess;
  readonly replica: RedisNodeProcess;
  readonly sentinels: readonly RedisNodeProcess[];
  /** `127.0.0.1:s1,…` (MCPGEN_REDIS_SENTINELS). */
  readonly addresses: string;
  readonly masterName: string;
  /** The port the sentinels name as master now. */
  currentMasterPort(): number;
  stop(): Promise<void>;
}

export async function startRedisSentinel(masterName = 'mymaster'): Promise<RedisSentinelDeployment> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-sentinel-'));
  const [m, r] = [await freePort(), await freePort()];
  const master = startNode([...BASE, '--port', String(m), '--dir', dir], m);
  const replica = startNode([...BASE, '--port', String(r), '--dir', dir, '--replicaof', '127.0.0.1', String(m)], r);
  const sentinels: RedisNodeProcess[] = [];
  const stop = async () => {
    await Promise.all([master, replica, ...sentinels].map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => redisCli(r, 'INFO', 'replication').includes('master_link_status:up'), 20_000);
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      // Sentinel rewrites its file (known replicas, epochs): one writable file each.
      writeFileSync(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${masterName} 127.0.0.1 ${m} 2`, `sentinel down-after-milliseconds ${masterName} 1000`, `sentinel failover-timeout ${masterName} 5000`, `sentinel parallel-syncs ${masterName} 1`, ''].join('\n'));
      sentinels.push(startNode([conf], port, find('redis-sentinel')));
    }
    await waitFor(() => sentinels.every((s) => /num-other-sentinels\s+2/.test(redisCli(s.port, 'SENTINEL', 'MASTER', masterName).replace(/\n/g, ' '))), 30_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    master,
    replica,
    sentinels,
    addresses: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    masterName,
    currentMasterPort: () => Number(redisCli(sentinels[0]!.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName).split('\n')[1]),
    stop,
  };
}
