// Issue 30: rate limits hold across three instances behind nginx (round robin) when they count in one
// redis-server: the total accepted is the limit. Without Redis each instance counts on its own, so the
// same load gets three times the limit through: the reason for REDIS_URL.
import { describe, expect, it } from 'vitest';
import { startNginx } from '../support/nginx.js';
import { rawCall } from '../support/raw-http.js';
import { startRedis } from '../support/redis.js';
import { compiledMain, startScript, type HttpProcess } from '../support/servers.js';

async function burst(url: string, n: number): Promise<{ accepted: number; refused: number; retryAfter: Set<string> }> {
  let accepted = 0;
  let refused = 0;
  const retryAfter = new Set<string>();
  for (let i = 0; i < n; i++) {
    const c = rawCall(url, 'tools/call', { name: 'add', arguments: { a: i, b: 1 } }, { id: i + 1 });
    const res = await c.response;
    await c.closed;
    if (res.statusCode === 200) accepted++;
    if (res.statusCode === 429) {
      refused++;
      retryAfter.add(String(res.headers['retry-after']));
    }
  }
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

describe('rate limits across three instances behind nginx', () => {
  it('with Redis: 10 of 45 calls accepted in total (limit 10/min), each refusal 429 with Retry-After', async () => {
    const redis = await startRedis();
    try {
      await behindNginx({ REDIS_URL: redis.url, MCPGEN_RATE_LIMIT_TOOLS: 'add=10/60' }, async (url) => {
        const r = await burst(url, 45);
        expect({ accepted: r.accepted, refused: r.refused }).toEqual({ accepted: 10, refused: 35 });
        for (const v of r.retryAfter) expect(Number(v)).toBeGreaterThanOrEqual(1);
      });
    } finally {
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
