// Issue 30: rate limits hold across three instances behind nginx (round robin) when they count in one
// redis-server — standalone, Sentinel or Cluster (shared-redis.ts): the total accepted is the limit. Without Redis each instance counts on its own, so the
// same load gets three times the limit through: the reason for REDIS_URL; when Redis goes away, each instance
// falls back to that count of its own rather than failing. A limit of 200 or more is taken
// from Redis in chunks (1 %: ops/rate-reserve.ts): the total stays within the limit, at most 3 × (chunk − 1)
// below it (the points an instance reserved and did not spend), and far fewer Redis calls are made.
import { describe, expect, it } from 'vitest';
import { startNginx } from '../support/nginx.js';
import { rawCall } from '../support/raw-http.js';
import { redisCommandCalls, startRedis } from '../support/redis.js';
import { sharedTopology, TOPOLOGIES } from '../support/shared-redis.js';
import { compiledMain, startScript, type HttpProcess } from '../support/servers.js';

/** `n` calls, `concurrency` at a time. */
async function burst(url: string, n: number, concurrency = 1): Promise<{ accepted: number; refused: number; retryAfter: Set<string> }> {
  let accepted = 0;
  let refused = 0;
  let next = 0;
  const retryAfter = new Set<string>();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const c = rawCall(url, 'tools/call', { name: 'add', arguments: { a: i, b: 1 } }, { id: i + 1 });
      const res = await c.response;
      await c.closed;
      if (res.statusCode === 200) accepted++;
      if (res.statusCode === 429) {
        refused++;
        retryAfter.add(String(res.headers['retry-after']));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { accepted, refused, retryAfter };
}

async function behindNginx(env: Record<string, string>, run: (url: string) => Promise<void>): Promise<void> {
  const servers: HttpProcess[] = [];
  try {
    for (let i = 0; i < 3; i++) servers.push(await startScript(compiledMain('weather'), [], { env }));
    const nginx = await startNginx({ upstreams: { mcp: servers.map((s) => Number(new URL(s.url).port)) }, backend: 'mcp' });
    try {
      await run(nginx.url);
    } finally {
      nginx.stop();
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** How many scripts (EVAL) the topology's nodes ran since it was flushed. */
const scripts = async (ports: readonly number[]) => (await Promise.all(ports.map(redisCommandCalls))).reduce((n, calls) => n + (calls.eval ?? 0), 0);

describe.each(TOPOLOGIES)('a shared rate limit across three instances behind nginx, on %s', (name) => {
  it('10 of 45 calls accepted in total (limit 10/min), each refusal 429 with Retry-After, one script per call', async () => {
    const { env, ports } = await sharedTopology(name);
    await behindNginx({ ...env, MCPGEN_RATE_LIMIT_TOOLS: 'add=10/60' }, async (url) => {
      const r = await burst(url, 45);
      expect({ accepted: r.accepted, refused: r.refused }).toEqual({ accepted: 10, refused: 35 });
      for (const v of r.retryAfter) expect(Number(v)).toBeGreaterThanOrEqual(1);
    });
    // Under 200 points a limit is counted exactly: the limiter's script once per call.
    expect(await scripts(ports)).toBe(45);
  });
});

describe('rate limits across three instances behind nginx', () => {
  it('with Redis and a limit taken in chunks (300/min: 3 points at a time): 294 to 300 of 450 accepted, few Redis calls', async () => {
    const redis = await startRedis();
    try {
      await behindNginx({ REDIS_URL: redis.url, MCPGEN_RATE_LIMIT_TOOLS: 'add=300/60' }, async (url) => {
        const r = await burst(url, 450, 8);
        expect(r.accepted + r.refused).toBe(450);
        expect(r.accepted).toBeLessThanOrEqual(300);
        expect(r.accepted).toBeGreaterThanOrEqual(300 - 3 * 2);
        for (const v of r.retryAfter) expect(Number(v)).toBeGreaterThanOrEqual(1);
      });
      // One reservation (the limiter's script) per 3 points, and one "full" answer per instance: not one per call.
      const { eval: scripts = 0 } = await redisCommandCalls(redis.port);
      expect(scripts).toBeGreaterThanOrEqual(300 / 3);
      expect(scripts).toBeLessThanOrEqual(300 / 3 + 3);
    } finally {
      await redis.kill();
    }
  });

  it('a Redis outage: each instance falls back to a count of its own (the insurance limiter), never refusing everyone nor failing', async () => {
    const redis = await startRedis();
    const servers: HttpProcess[] = [];
    try {
      for (let i = 0; i < 3; i++) servers.push(await startScript(compiledMain('weather'), [], { env: { REDIS_URL: redis.url, MCPGEN_RATE_LIMIT_TOOLS: 'add=10/60' } }));
      // Ten calls to each, all at once: one count in Redis for the three.
      const shared = await Promise.all(servers.map((s) => burst(s.url, 10)));
      expect({ accepted: shared.reduce((n, r) => n + r.accepted, 0), refused: shared.reduce((n, r) => n + r.refused, 0) }).toEqual({ accepted: 10, refused: 20 });
      await redis.kill();
      const during = await Promise.all(servers.map((s) => burst(s.url, 1)));
      expect(during.map((r) => r.accepted)).toEqual([1, 1, 1]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await redis.kill();
    }
  });

  it('without Redis: each instance counts alone, so three times the limit gets through', async () => {
    await behindNginx({ MCPGEN_RATE_LIMIT_TOOLS: 'add=10/60' }, async (url) => {
      const r = await burst(url, 45);
      expect(r.accepted).toBe(30);
    });
  });
});
