// Issue 50, failover under load: three processes of the generated jobs server (main.js, configured by
// MCPGEN_REDIS_SENTINELS) behind nginx round-robin, on Sentinel (1 master, 1 replica, 3 sentinels). Tasks are
// started and polled and calls flow through nginx while the master holding the task keys is SIGKILLed.
// Every task ends terminal, a result a poll saw `completed` is the result it ends with, no 5xx (or call
// error) comes outside the failover window — from the kill to every instance's /readyz answering 200 again —
// and the window is measured (docs/scale-out.md, "Managed Redis").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { waitFor } from '../support/ports.js';
import { startRedisSentinel, type RedisSentinelDeployment } from '../support/redis-topologies.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

let sentinel: RedisSentinelDeployment;
let nginx: Nginx;
const instances: HttpProcess[] = [];

beforeAll(async () => {
  sentinel = await startRedisSentinel('load');
  const env = { MCPGEN_REDIS_SENTINELS: sentinel.addresses, MCPGEN_REDIS_MASTER_NAME: 'load', MCPGEN_TASK_LEASE_MS: '3000' };
  instances.push(...(await Promise.all(['A', 'B', 'C'].map((id) => startScript(compiledMain('jobs'), [], { env: { ...env, INSTANCE_ID: id } })))));
  await waitFor(() => instances.every((p) => p.stderr().includes('redis connected')), 20_000);
  nginx = await startNginx({ upstreams: { mcp: instances.map((p) => Number(new URL(p.url).port)) }, backend: 'mcp' });
}, 90_000);

afterAll(async () => {
  nginx?.stop();
  await Promise.allSettled(instances.map((p) => p.stop('SIGKILL')));
  await sentinel?.stop();
});

const ready = async (p: HttpProcess) => (await fetch(`${new URL(p.url).origin}/readyz`).catch(() => undefined))?.status === 200;

interface Tracked {
  readonly taskId: string;
  /** Statuses the client was told, in order, with the result it saw when `completed`. */
  readonly seen: { status: string; result?: unknown }[];
}

describe('a Sentinel master SIGKILLed under load through nginx', () => {
  it('every task terminal, no completed result lost, no error outside the window, readiness back', async () => {
    // Every HTTP answer through nginx and every call that failed, with when.
    const answers: { at: number; status: number }[] = [];
    const failures: { at: number; what: string }[] = [];
    const counting: typeof fetch = async (input, init) => {
      const r = await fetch(input, init);
      answers.push({ at: Date.now(), status: r.status });
      return r;
    };
    const client = await JobsClient.connect({ url: nginx.url, fetch: counting });
    const tasks: Tracked[] = [];
    let loading = true;
    const fail = (what: string) => (e: unknown) => void failures.push({ at: Date.now(), what: `${what}: ${e instanceof Error ? e.message : String(e)}` });
    const follow = async (t: Tracked, handle: { status(): Promise<{ status: string; result?: unknown }> }) => {
      for (const until = Date.now() + 90_000; Date.now() < until; ) {
        const state = await handle.status().catch(fail('tasks/get'));
        if (state !== undefined && state.status !== t.seen.at(-1)?.status) t.seen.push({ status: state.status, ...(state.status === 'completed' ? { result: state.result } : {}) });
        if (state !== undefined && ['completed', 'failed', 'cancelled'].includes(state.status)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const follows: Promise<void>[] = [];
    const starting = (async () => {
      while (loading) {
        const started = await client.startTask('render', { frames: 8, frameMs: 100 }).catch(fail('tools/call render'));
        if (started?.task !== undefined) {
          const t: Tracked = { taskId: started.task.taskId, seen: [] };
          tasks.push(t);
          follows.push(follow(t, started.task));
        }
        await client.checkFeed({ url: 'https://feeds.example/a' }).catch(fail('tools/call check_feed'));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    await waitFor(() => tasks.length >= 6, 30_000);
    const killedAt = Date.now();
    await sentinel.master.kill();
    await waitFor(() => sentinel.currentMasterPort() === sentinel.replica.port, 30_000);
    const promotedAt = Date.now();
    await waitFor(async () => (await Promise.all(instances.map(ready))).every(Boolean), 30_000);
    const readyAt = Date.now();
    // Load goes on after the window: none of it may fail.
    const startedBefore = tasks.length;
    await waitFor(() => tasks.length >= startedBefore + 4, 30_000);
    loading = false;
    await starting;
    await Promise.all(follows);
    await client.close();

    for (const t of tasks) {
      const last = t.seen.at(-1);
      expect(['completed', 'failed'], `task ${t.taskId}: ${JSON.stringify(t.seen.map((s) => s.status))}`).toContain(last?.status);
      // A completed result, once told, stays: the final state is completed with the same result.
      const told = t.seen.find((s) => s.status === 'completed');
      if (told !== undefined) expect(last).toEqual(told);
    }
    const errors = [...answers.filter((a) => a.status >= 500).map((a) => ({ at: a.at, what: `HTTP ${a.status}` })), ...failures];
    const outside = errors.filter((e) => e.at < killedAt || e.at > readyAt + 500);
    expect(outside).toEqual([]);
    const lastError = Math.max(killedAt, ...errors.map((e) => e.at));
    console.log(
      `failover under load (sentinel): ${tasks.length} tasks (${tasks.filter((t) => t.seen.at(-1)?.status === 'completed').length} completed), ${answers.length} HTTP answers; ` +
        `promoted ${promotedAt - killedAt} ms, every /readyz 200 ${readyAt - killedAt} ms, last error ${lastError - killedAt} ms after the kill; ` +
        `${errors.length} errors in the window (${answers.filter((a) => a.status >= 500).length} HTTP 5xx)`,
    );
  }, 180_000);
});
