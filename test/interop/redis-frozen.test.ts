// A frozen Redis (issue 46 defect 2): redis-server stopped by SIGSTOP keeps its socket open and answers
// nothing — what a stalled host or a network partition looks like. Readiness must say so within the documented
// bound (a PING every second with a 1 s deadline: 2 s), task requests must fail fast naming Redis, the state
// change is one log line each way, and everything comes back after SIGCONT.
import { afterAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');

/** The documented bound (docs/robustness.md): heartbeat interval + PING deadline. */
const BOUND_MS = 2_000;
/** What the probe's own round trip and a busy machine may add on top. */
const SLACK_MS = 1_500;

let redis: RedisServer | undefined;
let server: HttpProcess | undefined;
let client: JobsClientType | undefined;

afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.stop('SIGKILL');
  await redis?.kill();
});

async function readyStatus(): Promise<number> {
  return (await fetch(`${new URL(server!.url).origin}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
}

describe('a frozen Redis (SIGSTOP)', () => {
  it('readiness 503 within the bound, task calls fail fast and clearly, one line per change, recovery after SIGCONT', async () => {
    redis = await startRedis();
    server = await startScript(compiledMain('jobs'), [], { env: { REDIS_URL: redis.url, INSTANCE_ID: 'A' } });
    await waitFor(() => server!.stderr().includes('redis connected'));
    client = await JobsClient.connect({ url: server.url });
    expect((await client.render({ frames: 1, frameMs: 1 })).structuredContent).toMatchObject({ frames: 1 });
    expect(await readyStatus()).toBe(200);

    redis.signal('SIGSTOP');
    const frozenAt = Date.now();
    await waitFor(async () => (await readyStatus()) === 503, 10_000);
    const notReadyAfter = Date.now() - frozenAt;
    expect(notReadyAfter).toBeLessThan(BOUND_MS + SLACK_MS);
    await waitFor(() => server!.stderr().includes('redis disconnected'));
    expect(server.stderr()).toMatch(/redis disconnected: no answer within 1000 ms/);

    // A task request while Redis does not answer: an error naming the task store, at once (not the client's timeout).
    const before = Date.now();
    await expect(client.render({ frames: 1, frameMs: 1 })).rejects.toThrow(/task store \(Redis\) unavailable: no answer within/);
    const failedIn = Date.now() - before;
    expect(failedIn).toBeLessThan(1_000);

    // Still frozen a while later: no more lines (one per state change, not one per heartbeat).
    await new Promise((r) => setTimeout(r, 2_500));
    expect(server.stderr().match(/redis disconnected/g)).toHaveLength(1);

    redis.signal('SIGCONT');
    const thawedAt = Date.now();
    await waitFor(async () => (await readyStatus()) === 200, 10_000);
    const readyAfter = Date.now() - thawedAt;
    expect(server.stderr().match(/redis connected/g)).toHaveLength(2);
    expect((await client.render({ frames: 1, frameMs: 1 })).structuredContent).toMatchObject({ frames: 1 });
    console.log(`frozen Redis: readiness 503 after ${notReadyAfter} ms, task call failed in ${failedIn} ms, ready again ${readyAfter} ms after SIGCONT`);
  }, 60_000);
});
