// npm run bench: generation scaling, and the generated server against a hand-written SDK server and a
// bare JSON-RPC floor, alternated in one run on 127.0.0.1. Prints Markdown tables (BENCHMARKS.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBenchPackage } from './bench-package.mjs';
import { echoBody, listBody, load, median, startServer } from './server-load.mjs';
import { syntheticOpenApi, syntheticSpec } from './synthetic-spec.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench');
const MCPGEN = join(ROOT, 'bin/mcpgen.js');
const QUICK = process.env.BENCH_QUICK === '1';
const N1 = QUICK ? 300 : 2000;
const N16 = QUICK ? 600 : 4000;
const ROUNDS = QUICK ? 1 : 2;
// Calls every server gets before the timed loads, so they measure each server's steady state, not V8
// still optimizing it (cold start is measured on its own).
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? (QUICK ? 200 : 1000));
// BENCH_AUTH_ONLY=1: only the authorization comparison (section 3), for a quick look.
const AUTH_ONLY = process.env.BENCH_AUTH_ONLY === '1';
// BENCH_GEN_ONLY=1: only generation (sections 1 and 1b).
const GEN_ONLY = process.env.BENCH_GEN_ONLY === '1';
// BENCH_SERVERS_ONLY=1: skip generation (sections 1 and 1b); servers and authorization only.
const SERVERS_ONLY = process.env.BENCH_SERVERS_ONLY === '1';
const OAMG = join(ROOT, 'bench/peers/node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const fmt = (n, d = 2) => n.toFixed(d);

// 1. Generation time and scaling (cold processes).
function timeGenerate(spec, out) {
  const hasTime = spawnSync('/usr/bin/time', ['--version']).status === 0;
  const t = process.hrtime.bigint();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, MCPGEN, 'generate', spec, '--out', out], { encoding: 'utf8' })
    : spawnSync(process.execPath, [MCPGEN, 'generate', spec, '--out', out], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`generate failed: ${r.stderr}`);
  const kb = hasTime ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { seconds, peakMb: kb / 1024 };
}

const generation = [];
for (const n of AUTH_ONLY || SERVERS_ONLY ? [] : [10, 100, 1000]) {
  const spec = join(WORK, `synthetic${n}.yaml`);
  writeFileSync(spec, syntheticSpec(n));
  const runs = Array.from({ length: 3 }, (_, i) => timeGenerate(spec, join(WORK, `gen-${n}-${i}`)));
  generation.push({ tools: n, seconds: median(runs.map((r) => r.seconds)), peakMb: median(runs.map((r) => r.peakMb)) });
}

// 1b. Against openapi-mcp-generator 4.0.1 on the same N tools given as OpenAPI (one POST operation per
// tool): whole-process wall time and peak RSS, the two alternating, a warm-up then 5 runs, medians.
// "current run": mcpgen generate when its outputs are current (the commonest build-step call);
// openapi-mcp-generator has no such notion and regenerates (--force into its existing output).
function timeProcess(args, env = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { seconds, peakMb: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}
const versus = [];
if (!AUTH_ONLY && !SERVERS_ONLY) {
  const RUNS = 5;
  const cacheDir = join(WORK, 'vs-cache');
  const env = { MCPGEN_CACHE_DIR: cacheDir };
  const specs = {};
  for (const n of [10, 1000]) {
    specs[n] = { mcpgen: join(WORK, `vs${n}.yaml`), openapi: join(WORK, `vs${n}.openapi.yaml`) };
    writeFileSync(specs[n].mcpgen, syntheticSpec(n, `vs${n}`));
    writeFileSync(specs[n].openapi, syntheticOpenApi(n, `vs${n}`));
  }
  let fresh = 0;
  const cases = [
    // What this machine charges to start Node at all, in the same alternation: the floor for both.
    { name: 'Node start alone (`node -e 0`), the floor', raw: true, mcpgen: () => ['-e', '0'], openapi: () => ['-e', '0'] },
    { name: 'current run (10 tools)', mcpgen: () => ['generate', specs[10].mcpgen, '--out', join(WORK, 'vs-current')], openapi: () => ['-i', specs[10].openapi, '-o', join(WORK, 'vs-oamg-current'), '--force'] },
    { name: '`check` (10 tools)', mcpgen: () => ['check', specs[10].mcpgen], openapi: undefined },
    { name: 'full generate, 10 tools', mcpgen: () => ['generate', specs[10].mcpgen, '--out', join(WORK, `vs-fresh-${fresh++}`)], openapi: () => ['-i', specs[10].openapi, '-o', join(WORK, `vs-oamg-fresh-${fresh++}`)] },
    { name: 'full generate, 1000 tools', mcpgen: () => ['generate', specs[1000].mcpgen, '--out', join(WORK, `vs-fresh-${fresh++}`)], openapi: () => ['-i', specs[1000].openapi, '-o', join(WORK, `vs-oamg-fresh-${fresh++}`)] },
  ];
  for (const c of cases) {
    const runs = { mcpgen: [], openapi: [] };
    for (let i = 0; i <= RUNS; i++) {
      const order = i % 2 === 0 ? ['mcpgen', 'openapi'] : ['openapi', 'mcpgen'];
      for (const tool of order) {
        if (c[tool] === undefined) continue;
        const r = c.raw ? timeProcess(c[tool]()) : tool === 'mcpgen' ? timeProcess([MCPGEN, ...c.mcpgen()], env) : timeProcess([OAMG, ...c.openapi()]);
        if (i > 0) runs[tool].push(r); // run 0 is the warm-up (and, for "current run", makes the output current)
      }
    }
    const med = (rs) => (rs.length === 0 ? undefined : { seconds: median(rs.map((r) => r.seconds)), peakMb: median(rs.map((r) => r.peakMb)) });
    versus.push({ name: c.name, mcpgen: med(runs.mcpgen), openapi: med(runs.openapi) });
  }
}
if (GEN_ONLY) {
  process.stdout.write(`${[...generationTable(), ...versusTable()].join('\n')}\n`);
  process.exit(0);
}

function generationTable() {
  const out = ['', '### Generation (cold `mcpgen generate`, median of 3)', '', '| tools | wall time | peak RSS |', '| --- | --- | --- |'];
  for (const g of generation) out.push(`| ${g.tools} | ${fmt(g.seconds)} s | ${Number.isNaN(g.peakMb) ? 'n/a' : `${fmt(g.peakMb, 0)} MB`} |`);
  const g100 = generation.find((g) => g.tools === 100).seconds;
  const g1000 = generation.find((g) => g.tools === 1000).seconds;
  out.push('', `time(1000)/time(100) = ${fmt(g1000 / g100)} (tools ×10)`);
  return out;
}

function versusTable() {
  const cell = (m) => (m === undefined ? 'n/a (no such command)' : `${fmt(m.seconds)} s, ${fmt(m.peakMb, 0)} MB`);
  const out = ['', '### Generation against openapi-mcp-generator 4.0.1 (same tools as OpenAPI; median of 5 after a warm-up, alternated)', '', '| run | mcpgen | openapi-mcp-generator | time ratio (mcpgen / it) |', '| --- | --- | --- | --- |'];
  for (const v of versus) out.push(`| ${v.name} | ${cell(v.mcpgen)} | ${cell(v.openapi)} | ${v.mcpgen && v.openapi ? fmt(v.mcpgen.seconds / v.openapi.seconds) : '—'} |`);
  return out;
}

// 2. Servers: generate and compile the bench packages.
const packages = {};
for (const total of AUTH_ONLY ? [10] : [10, 1000]) packages[total] = buildBenchPackage(WORK, total);

function start(kind, total, env = {}, token = undefined) {
  const script = join(ROOT, 'bench/servers', `${kind}.mjs`);
  return startServer(script, kind === 'mcpgen' ? [packages[total], '0'] : [String(total), '0'], env, token);
}

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

if (AUTH_ONLY) {
  const report = (await authSection()).join('\n');
  process.stdout.write(`${report}\n`);
  process.exit(0);
}
// This process's first fetch loads undici (tens of ms): done before timing, or the first server started
// (mcpgen, in round 0) would have it counted in its cold start. bench/cold-start.mjs has the finer measure.
await (await fetch('data:,')).text();
const results = [];
for (const total of [10, 1000]) {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['mcpgen', 'sdk', 'bare'] : ['bare', 'sdk', 'mcpgen'];
    for (const kind of order) {
      const s = await start(kind, total);
      try {
        await load(s.url, echoBody, WARM_UP, 4); // warm-up
        const c1 = await load(s.url, echoBody, N1, 1);
        const c16 = await load(s.url, echoBody, N16, 16);
        const list = await load(s.url, listBody, QUICK ? 50 : 300, 1);
        results.push({ total, kind, round, coldMs: s.coldMs, c1, c16, list, rss: rssMb(s.child.pid) });
      } finally {
        s.child.kill('SIGKILL');
      }
    }
  }
}

// Report: best of the rounds for throughput, the matching run's latencies.
const best = (total, kind) => {
  const runs = results.filter((r) => r.total === total && r.kind === kind);
  return {
    c1: runs.reduce((a, b) => (b.c1.rps > a.c1.rps ? b : a)).c1,
    c16: runs.reduce((a, b) => (b.c16.rps > a.c16.rps ? b : a)).c16,
    list: runs.reduce((a, b) => (b.list.p50 < a.list.p50 ? b : a)).list,
    coldMs: Math.min(...runs.map((r) => r.coldMs)),
    rss: Math.min(...runs.map((r) => r.rss)),
  };
};
const lines = [];
lines.push(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. ${QUICK ? 'QUICK run. ' : ''}Loopback, keep-alive fetch client.`);
if (!SERVERS_ONLY) lines.push(...generationTable(), ...versusTable());
lines.push('', '### tools/call `echo` (6 validated properties) and tools/list', '', '| tools | server | c=1 req/s | c=1 p50 | c=1 p99 | c=16 req/s | c=16 p50 | c=16 p99 | tools/list p50 | cold start | RSS |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const names = { mcpgen: '(a) mcpgen', sdk: '(b) SDK by hand', bare: '(c) bare floor' };
for (const total of [10, 1000]) {
  for (const kind of ['mcpgen', 'sdk', 'bare']) {
    const b = best(total, kind);
    lines.push(`| ${total} | ${names[kind]} | ${fmt(b.c1.rps, 0)} | ${fmt(b.c1.p50)} ms | ${fmt(b.c1.p99)} ms | ${fmt(b.c16.rps, 0)} | ${fmt(b.c16.p50)} ms | ${fmt(b.c16.p99)} ms | ${fmt(b.list.p50)} ms | ${fmt(b.coldMs, 0)} ms | ${fmt(b.rss, 0)} MB |`);
  }
}
lines.push('', '### Ratios (same run)', '', '| tools | metric | (a)/(b) | (a)/(c) |', '| --- | --- | --- | --- |');
for (const total of [10, 1000]) {
  const a = best(total, 'mcpgen');
  const b = best(total, 'sdk');
  const c = best(total, 'bare');
  lines.push(`| ${total} | req/s c=1 | ${fmt(a.c1.rps / b.c1.rps)} | ${fmt(a.c1.rps / c.c1.rps)} |`);
  lines.push(`| ${total} | req/s c=16 | ${fmt(a.c16.rps / b.c16.rps)} | ${fmt(a.c16.rps / c.c16.rps)} |`);
  lines.push(`| ${total} | p99 c=16 | ${fmt(a.c16.p99 / b.c16.p99)} | ${fmt(a.c16.p99 / c.c16.p99)} |`);
}
const a10 = best(10, 'mcpgen');
const a1000 = best(1000, 'mcpgen');
lines.push('', `(a) request cost, 1000 vs 10 tools: c=1 req/s ratio ${fmt(a1000.c1.rps / a10.c1.rps)}, c=16 ${fmt(a1000.c16.rps / a10.c16.rps)} (1.00 = does not grow with the number of tools)`);
lines.push(...(await authSection()));
const report = lines.join('\n');
writeFileSync(join(WORK, 'results.json'), JSON.stringify({ generation, versus, results }, null, 2));
writeFileSync(join(WORK, 'report.md'), `${report}\n`);
process.stdout.write(`${report}\n`);

// 3. Authorization: the 10-tool server with and without a bearer gate (JWT, RS256, JWKS cached after the
// first request), alternated in one run; plus the verify step alone, in process.
async function authSection() {
  const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
  const { createServer } = await import('node:http');
  const { createJwtVerifier } = await import('../packages/runtime/dist/server/index.js');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const as = createServer((req, res) => {
    const body = req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` };
    res.writeHead(req.url === '/jwks' || req.url === '/.well-known/oauth-authorization-server' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((r) => as.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${as.address().port}`;
  const resource = 'http://bench.local/mcp';
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ scope: 'bench', client_id: 'bench', sub: 'bench' }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'bench' }).setIssuer(issuer).setAudience(resource).setIssuedAt(now).setExpirationTime(now + 3600).sign(privateKey);
  const env = { BENCH_AUTH_ISSUER: issuer, BENCH_AUTH_RESOURCE: resource };
  const runs = [];
  try {
    for (let round = 0; round < ROUNDS * 2; round++) {
      for (const auth of round % 2 === 0 ? [false, true] : [true, false]) {
        const s = await start('mcpgen', 10, auth ? env : {}, auth ? token : undefined);
        try {
          const t = auth ? token : undefined;
          await load(s.url, echoBody, WARM_UP, 4, t);
          runs.push({ auth, c1: await load(s.url, echoBody, N1, 1, t), c16: await load(s.url, echoBody, N16, 16, t) });
        } finally {
          s.child.kill('SIGKILL');
        }
      }
    }
    // The verify step alone, keys cached: jose's full check (tokenCacheSize 0, what each request paid before
    // verified tokens were remembered) and a remembered token (what a client reusing its token pays now).
    const verifyMsOf = async (options) => {
      const verifier = createJwtVerifier([issuer], options);
      for (let i = 0; i < 3; i++) await verifier.verify(token, { resource });
      const n = QUICK ? 500 : 5000;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await verifier.verify(token, { resource });
      return (performance.now() - t0) / n;
    };
    const verifyMs = await verifyMsOf({ tokenCacheSize: 0 });
    const rememberedMs = await verifyMsOf({});
    const bestOf = (auth, key) => runs.filter((r) => r.auth === auth).reduce((a, b) => (b[key].rps > a[key].rps ? b : a))[key];
    const out = ['', '### Authorization (10 tools, tools/call `echo`; JWT RS256, JWKS cached)', '', '| server | c=1 req/s | c=1 p50 | c=16 req/s | c=16 p50 |', '| --- | --- | --- | --- | --- |'];
    for (const auth of [false, true]) {
      const c1 = bestOf(auth, 'c1');
      const c16 = bestOf(auth, 'c16');
      out.push(`| ${auth ? '(a) with auth' : '(a) without auth'} | ${fmt(c1.rps, 0)} | ${fmt(c1.p50)} ms | ${fmt(c16.rps, 0)} | ${fmt(c16.p50)} ms |`);
    }
    const plain1 = 1000 / bestOf(false, 'c1').rps;
    const auth1 = 1000 / bestOf(true, 'c1').rps;
    const plain16 = 1000 / bestOf(false, 'c16').rps;
    const auth16 = 1000 / bestOf(true, 'c16').rps;
    out.push('', `Cost of auth per tools/call: c=1 ${fmt(((auth1 - plain1) / plain1) * 100, 1)} %, c=16 ${fmt(((auth16 - plain16) / plain16) * 100, 1)} % (time per request with auth vs without; target ≤ 25 %).`);
    out.push(`With auth / without, req/s: c=1 ${fmt(plain1 / auth1)}, c=16 ${fmt(plain16 / auth16)} (issue 33: ≥ 0.85).`);
    out.push(`verify alone (jose jwtVerify, RS256, cached JWKS): ${fmt(verifyMs * 1000, 0)} µs per token = ${fmt((verifyMs / plain1) * 100, 1)} % of a tools/call at c=1 (${fmt(plain1)} ms); a remembered token (the verifier's token cache): ${fmt(rememberedMs * 1000, 1)} µs.`);
    return out;
  } finally {
    as.close();
  }
}
