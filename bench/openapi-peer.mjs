// mcpgen against openapi-mcp-generator 4.0.1 on the same OpenAPI descriptions (the vendored petstores and
// GitHub's REST description): the tools each produces (count, names, input schemas), the wall time of
// import + generate (mcpgen's two commands, and its one `import openapi --generate`), and proxied tools/call requests/s of each generated server against one mock
// upstream on 127.0.0.1. `node bench/openapi-peer.mjs` (after `npm ci --prefix bench/peers` and
// `npm run build`); BENCH_OPENAPI_SKIP_LARGE=1 leaves GitHub's description out. Prints Markdown.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import ts from 'typescript';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-openapi');
// Under bench/peers so the peer's generated server finds its dependencies (SDK v1, axios, hono…) there.
const PEER_WORK = join(ROOT, 'bench/peers/.out');
const MCPGEN = join(ROOT, 'bin/mcpgen.js');
const OAMG = join(ROOT, 'bench/peers/node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');
const CALLS = Number(process.env.BENCH_OPENAPI_CALLS ?? 2000);
// As in bench/run.mjs: each server measured in its steady state, not while V8 still optimizes it. A proxied
// call runs more per-request functions (the HTTP client's too) than a plain one, each optimized only after
// some thousands of calls: after 1,000 warm-up calls both servers' CPU per call still fell by half over the
// next 3,000 (mcpgen 500 → 240 µs, measured with /proc per thread, 2026-12-06), so the warm-up is 4,000.
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 4000);
const WARM_UP_CHUNK = 500;
const fmt = (n, d = 2) => n.toFixed(d);

rmSync(WORK, { recursive: true, force: true });
rmSync(PEER_WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
mkdirSync(PEER_WORK, { recursive: true });
const fixtures = join(ROOT, 'test/fixtures/openapi');
writeFileSync(join(WORK, 'github.json'), gunzipSync(readFileSync(join(fixtures, 'github/api.github.com.json.gz'))));
const DESCRIPTIONS = [
  { name: 'petstore20', label: 'Swagger 2.0 petstore', file: join(fixtures, 'oas-examples/swagger-2.0-petstore.json') },
  { name: 'petstore30', label: 'OpenAPI 3.0 petstore', file: join(fixtures, 'oas-examples/openapi-3.0-petstore.json') },
  { name: 'petstore31', label: 'OpenAPI 3.1 petstore', file: join(fixtures, 'oas-examples/openapi-3.1-petstore.json') },
  ...(process.env.BENCH_OPENAPI_SKIP_LARGE === '1' ? [] : [{ name: 'github', label: "GitHub's REST API (@octokit/openapi 23.0.2)", file: join(WORK, 'github.json') }]),
];

function timed(args, cwd, env = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { seconds, peakMb: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}

/**
 * mcpgen: `import openapi` then `generate` (two processes, times added; peak is the larger), and
 * `import openapi --generate` (one process) in a folder of its own, which must write the same files.
 */
function mcpgenRun(d) {
  const dir = join(WORK, d.name);
  const oneDir = join(WORK, `${d.name}-one`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(oneDir, { recursive: true });
  // A first import: the record of clean schema checks an earlier bench run's import left would make this a re-import.
  const firstImport = () => rmSync(join(ROOT, 'node_modules/.cache/mcpgen/schema-checks.json'), { force: true });
  firstImport();
  const imp = timed([MCPGEN, 'import', 'openapi', d.file, '--name', d.name], dir);
  const gen = timed([MCPGEN, 'generate', `specs/${d.name}.yaml`], dir);
  firstImport();
  const one = timed([MCPGEN, 'import', 'openapi', d.file, '--name', d.name, '--generate'], oneDir);
  if (treeDigest(dir) !== treeDigest(oneDir)) throw new Error(`${d.name}: import --generate wrote other files than import + generate`);
  // The tools are in the file the import owns; specs/<name>.yaml is the root spec that includes it.
  const spec = parse(readFileSync(join(dir, 'specs', d.name, 'openapi.yaml'), 'utf8'));
  const tools = new Map(spec.tools.map((t) => [t.name, t.input ?? { type: 'object' }]));
  return { seconds: imp.seconds + gen.seconds, peakMb: Math.max(imp.peakMb, gen.peakMb), one, tools, pkg: join(dir, 'generated', d.name) };
}

/** sha256 over every file under `dir` (relative path and bytes), in path order. */
function treeDigest(dir) {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  for (const f of files) hash.update(`${relative(dir, f)}\0`).update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

/** openapi-mcp-generator: one process; its tools read back from the generated src/index.ts. */
function peerRun(d) {
  const dir = join(PEER_WORK, d.name);
  const run = timed([OAMG, '-i', d.file, '-o', dir, '-t', 'streamable-http', '--force'], ROOT);
  const index = readFileSync(join(dir, 'src/index.ts'), 'utf8');
  const tools = new Map();
  for (const m of index.matchAll(/^ {2}\["([^"]+)", \{\n {4}name: "[^"]*",[^]*?^ {4}inputSchema: (.*),\n {4}method:/gm)) tools.set(m[1], JSON.parse(m[2]));
  return { ...run, tools, dir };
}

/** Names in both, input property names the same; the differences counted by kind. */
function compare(ours, theirs) {
  const both = [...ours.keys()].filter((n) => theirs.has(n));
  let sameProps = 0;
  let bodyRenamed = 0;
  let refs = 0;
  const diffs = [];
  for (const n of both) {
    const a = Object.keys(ours.get(n).properties ?? {}).sort();
    const b = Object.keys(theirs.get(n).properties ?? {}).sort();
    if (JSON.stringify(a) === JSON.stringify(b)) sameProps++;
    else if (a.includes('body') && b.includes('requestBody')) bodyRenamed++;
    else if (diffs.length < 3) diffs.push(`${n}: [${a.join(', ')}] vs [${b.join(', ')}]`);
    if (JSON.stringify(ours.get(n)).includes('$ref')) refs++;
  }
  const size = (m) => [...m.values()].reduce((s, v) => s + JSON.stringify(v).length, 0);
  return { both: both.length, onlyOurs: [...ours.keys()].filter((n) => !theirs.has(n)), onlyTheirs: [...theirs.keys()].filter((n) => !ours.has(n)), sameProps, bodyRenamed, refs, diffs, ourBytes: size(ours), theirBytes: size(theirs) };
}

const rows = [];
for (const d of DESCRIPTIONS) {
  process.stderr.write(`${d.label}: mcpgen…\n`);
  const ours = mcpgenRun(d);
  process.stderr.write(`${d.label}: openapi-mcp-generator…\n`);
  let theirs;
  try {
    theirs = peerRun(d);
  } catch (e) {
    theirs = { error: e.message.split('\n')[0].slice(0, 200), tools: new Map() };
  }
  rows.push({ d, ours, theirs, cmp: compare(ours.tools, theirs.tools) });
}

// Proxied tools/call: petstore 3.0 getPetById (GET /pet/{petId}, an output schema) on each generated
// server, the same mock upstream answering one pet.
const pet = JSON.stringify({ id: 1, name: 'rex', category: { id: 1, name: 'dogs' }, photoUrls: ['https://example.com/rex.png'], tags: [{ id: 1, name: 'good' }], status: 'available' });
let upstreamCalls = 0;
const upstream = createServer((req, res) => {
  upstreamCalls++;
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(pet));
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

const petRow = rows.find((r) => r.d.name === 'petstore30');
compileNoCheck(petRow.ours.pkg, join(WORK, 'js-petstore30'));
writeFileSync(join(WORK, 'js-petstore30/package.json'), '{"type":"module"}');
compileNoCheck(join(petRow.theirs.dir, 'src'), join(petRow.theirs.dir, 'build'));
writeFileSync(join(petRow.theirs.dir, 'build/package.json'), '{"type":"module"}');

function compileNoCheck(src, out) {
  const files = readdirSync(src).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
  ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, esModuleInterop: true, outDir: out, rootDir: src, noCheck: true }).emit();
}

function startChild(args, env, ready) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  return new Promise((resolvePromise, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c.toString();
      const url = ready(err);
      if (url === undefined) return;
      child.stderr.removeAllListeners('data');
      child.stderr.resume(); // the peer logs every request: keep draining
      resolvePromise({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err.slice(-1000)}`)));
  });
}

/** Until a TCP connection to the server's port is accepted (the peer logs its banner before it listens). */
async function listening(url, deadline = Date.now() + 15_000) {
  const { port, hostname } = new URL(url);
  for (;;) {
    const ok = await new Promise((r) => connect(Number(port), hostname).once('connect', function () { this.destroy(); r(true); }).once('error', () => r(false)));
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} is not listening after 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
async function mcpgenCall(url, i) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'getPetById', arguments: { petId: 1 }, _meta: META } });
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'getPetById' }, body });
  return r.text();
}

/** SDK v1 Streamable HTTP, as the peer serves it: initialize once, then calls in that session. */
async function peerSession(url) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) });
  await init.text();
  const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return async (i) => (await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'getPetById', arguments: { petId: 1 } } }) })).text();
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

async function load(callOne, count, concurrency) {
  let next = 0;
  const began = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const text = await callOne(next++);
      if (!text.includes('"result"') || text.includes('"isError":true')) throw new Error(`bad answer: ${text.slice(0, 300)}`);
    }
  }));
  return count / ((performance.now() - began) / 1000);
}

const port = 40000 + Math.floor(Math.random() * 20000);
const ourServer = await startChild([join(ROOT, 'bench/servers/openapi-mcpgen.mjs'), join(WORK, 'js-petstore30'), '0'], { PETSTORE30_BASE_URL: upstreamUrl }, (err) => /listening on (\S+)/.exec(err)?.[1]);
const peerServer = await startChild([join(petRow.theirs.dir, 'build/index.js')], { API_BASE_URL: upstreamUrl, PORT: String(port) }, (err) => (/StreamableHTTP|listening|running/i.test(err) ? `http://127.0.0.1:${port}/mcp` : undefined));
await listening(peerServer.url);
const peerCall = await peerSession(peerServer.url);
const throughput = [];
for (const concurrency of [1, 8]) {
  const n = concurrency === 1 ? CALLS / 2 : CALLS;
  // Warm-up in alternated chunks, so neither server sits idle for long before it is measured: on this
  // machine the kernel pages out memory a process leaves untouched for some seconds (DAMON reclaim, see
  // BENCHMARKS.md), and a server that had waited ~8 s through the other's whole warm-up then ran its next
  // thousand calls at twice the CPU per call (measured on mcpgen's server alone, 2026-12-06).
  for (let warmed = 0; warmed < WARM_UP; warmed += WARM_UP_CHUNK) {
    await load((i) => mcpgenCall(ourServer.url, i), Math.min(WARM_UP_CHUNK, WARM_UP - warmed), concurrency);
    await load(peerCall, Math.min(WARM_UP_CHUNK, WARM_UP - warmed), concurrency);
  }
  // Alternated halves, so a change in the machine's load falls on both.
  // Server CPU per call as well: it is disturbed least by the other load on the machine.
  const ours = [];
  const theirs = [];
  const cpu = { ours: 0, theirs: 0 };
  const measured = async (child, run) => {
    const before = cpuSeconds(child.pid);
    const rate = await run();
    cpu[child === ourServer.child ? 'ours' : 'theirs'] += cpuSeconds(child.pid) - before;
    return rate;
  };
  for (let half = 0; half < 2; half++) {
    ours.push(await measured(ourServer.child, () => load((i) => mcpgenCall(ourServer.url, i), n / 2, concurrency)));
    theirs.push(await measured(peerServer.child, () => load(peerCall, n / 2, concurrency)));
  }
  throughput.push({ concurrency, ours: (ours[0] + ours[1]) / 2, theirs: (theirs[0] + theirs[1]) / 2, cpuOurs: (cpu.ours / n) * 1e6, cpuTheirs: (cpu.theirs / n) * 1e6 });
}
ourServer.child.kill('SIGINT');
peerServer.child.kill('SIGINT');
upstream.close();

const out = ['### OpenAPI import against openapi-mcp-generator 4.0.1 (`node bench/openapi-peer.mjs`, one run)', ''];
out.push('| description | tools: mcpgen / peer | same names | only mcpgen | only peer | same input property names | `body` vs `requestBody` only | mcpgen schemas with `$ref` | input schema JSON: mcpgen / peer |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const { d, ours, theirs, cmp } of rows) {
  const list = (xs) => (xs.length === 0 ? '0' : `${xs.length} (${xs.slice(0, 3).join(', ')}${xs.length > 3 ? ', …' : ''})`);
  out.push(`| ${d.label} | ${ours.tools.size} / ${theirs.error ? `failed: ${theirs.error}` : theirs.tools.size} | ${cmp.both} | ${list(cmp.onlyOurs)} | ${list(cmp.onlyTheirs)} | ${cmp.sameProps} | ${cmp.bodyRenamed} | ${cmp.refs} | ${fmt(cmp.ourBytes / 1024, 0)} KB / ${fmt(cmp.theirBytes / 1024, 0)} KB |`);
}
const other = rows.flatMap((r) => r.cmp.diffs.map((x) => `${r.d.name} ${x}`));
if (other.length > 0) out.push('', `Other input differences (first of each): ${other.join('; ')}`);
// Each description twice for mcpgen: the two commands (import, then generate) and the one (`import --generate`).
out.push('', '| description | mcpgen commands | import + generate: mcpgen | openapi-mcp-generator | ratio (mcpgen / peer) |', '| --- | --- | --- | --- | --- |');
for (const { d, ours, theirs } of rows) {
  const peer = theirs.error ? 'failed' : `${fmt(theirs.seconds)} s, ${fmt(theirs.peakMb, 0)} MB`;
  for (const [how, run] of [['two: `import openapi`, then `generate`', ours], ['one: `import openapi --generate`', ours.one]]) {
    out.push(`| ${d.label} | ${how} | ${fmt(run.seconds)} s, ${fmt(run.peakMb, 0)} MB | ${peer} | ${theirs.error ? '—' : fmt(run.seconds / theirs.seconds)} |`);
  }
}
out.push('', `| proxied tools/call \`getPetById\` (petstore 3.0, ${CALLS / 2} / ${CALLS} calls after ${WARM_UP} warm-up) | mcpgen | openapi-mcp-generator | ratio | server CPU per call: mcpgen / peer |`, '| --- | --- | --- | --- | --- |');
const cpuCell = (t) => (Number.isNaN(t.cpuOurs) ? '—' : `${fmt(t.cpuOurs, 0)} µs / ${fmt(t.cpuTheirs, 0)} µs (${fmt(t.cpuTheirs / t.cpuOurs)}×)`);
for (const t of throughput) out.push(`| concurrency ${t.concurrency} | ${fmt(t.ours, 0)} req/s | ${fmt(t.theirs, 0)} req/s | ${fmt(t.ours / t.theirs)}× | ${cpuCell(t)} |`);
out.push('', `Upstream requests seen: ${upstreamCalls}.`);
process.stdout.write(`${out.join('\n')}\n`);
