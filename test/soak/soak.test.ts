// `npm run soak`: SOAK_SECONDS (default 60) of mixed traffic at c=64 — valid calls whose answers are
// checked, the hostile requests of the fuzz test, clients that go away mid-call and clients that read
// slowly — against the generated sql server in its own process. Reports the server's live heap after
// a full GC before and after (target: growth under 5 MB) and every wrong answer (target: none).
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { heapAfterGc, judged, makeCase, sendCase } from '../support/hostile-cases.js';
import { prng } from '../support/prng.js';
import { ROOT, startScript } from '../support/servers.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 64);

let child: ChildProcess;
let url: string;
beforeAll(async () => {
  ({ child, url } = await startScript(join(ROOT, 'test/support/hostile-server.mjs'), [], { nodeFlags: ['--expose-gc'] }));
});
afterAll(() => {
  child.kill('SIGKILL');
});


it(`soaks ${SECONDS} s at c=${CONCURRENCY} with mixed valid, hostile and disconnecting clients`, async () => {
  const r = prng(Number(process.env.SOAK_SEED ?? 20261203));
  // Warm up (JIT, validators, pools) with the same mix, unjudged.
  for (let i = 0; i < 200; i++) await sendCase(url, makeCase(r)).catch(() => undefined);
  await new Promise((res) => setTimeout(res, 1000));
  const before = await heapAfterGc(child);
  const end = Date.now() + SECONDS * 1000;
  const counts = new Map<string, number>();
  const wrong: string[] = [];
  let total = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      const c = makeCase(r);
      const got = await sendCase(url, c).catch((e: Error) => ({ status: -1, outcome: `threw ${e.message}` as never }));
      total++;
      counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
      if (!judged(c, got)) wrong.push(`${c.kind}: got ${got.status}/${got.outcome}, want ${c.expect.map((e) => e.join('/')).join(' or ')}`);
    }
  }));
  // Let handler timeouts (300 ms) and aborted streams finish before weighing.
  await new Promise((res) => setTimeout(res, 2000));
  const after = await heapAfterGc(child);
  const growth = (after - before) / 1e6;
  process.stdout.write(`soak: ${total} requests in ${SECONDS} s at c=${CONCURRENCY} (${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')})\n`);
  process.stdout.write(`soak: wrong answers ${wrong.length}; live heap after GC ${(before / 1e6).toFixed(1)} → ${(after / 1e6).toFixed(1)} MB (growth ${growth.toFixed(1)} MB)\n`);
  for (const w of wrong.slice(0, 20)) process.stdout.write(`soak: wrong: ${w}\n`);
  expect(wrong.slice(0, 20)).toEqual([]);
  expect(child.exitCode).toBeNull();
  expect(growth).toBeLessThan(5);
}, (SECONDS + 120) * 1000);
