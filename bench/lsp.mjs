// node bench/lsp.mjs: `mcpgen lsp` on a 1,000-tool spec (issue 47). Each edit changes one character of
// one tool (`description:` → `descripton:` and back, spread over the file), sent as an incremental
// didChange; the time is from sending it to the publishDiagnostics that reflects it (the MCPG003 there,
// or the empty list). LSP_EDITS (default 1000) edits, LSP_TOOLS (default 1000) tools. Reports p50/p95;
// the time of a hover on the spec sent right after an edit (one more, untimed edit after every 10th), which
// the main thread answers while the worker checks (not a target: it shows that hover does not block); and
// the memory after 10 %, 50 % and all of the edits (100, 500, 1,000), each once the server has been idle
// 5 s: the heap in use after a full collection (the server runs with --expose-gc) of the main thread and
// of the checker thread (the `mcpgen/memory` request), and the resident memory of the process beside it
// (RSS is noisy: V8 and malloc keep freed pages a while). Targets: p95 ≤ 100 ms; memory flat across 1,000
// edits: each thread's heap grows by at most HEAP_TOLERANCE_MB from the first mark to the last. Not zero: a
// re-read entry keeps a copy of its own text while the first read's one copy stays for the entries never
// re-read (parse/entry-cache.ts), so a heap rises until each edited entry has been re-read once (bounded by
// the spec's size, not by the edits), and V8's compiled code varies by a few hundred KB. A leak of the
// kind fixed in round 3 (an entry per edit in the schema rules' caches) grew the checker 3.5 MB over 900 edits.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { syntheticSpec } from './synthetic-spec.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-lsp');
const EDITS = Number(process.env.LSP_EDITS ?? 1000);
const TOOLS = Number(process.env.LSP_TOOLS ?? 1000);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const HEAP_TOLERANCE_MB = 2;
/** A hover after every this many timed edits. */
const HOVER_EVERY = 10;
const MB = 1024 * 1024;
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
/** The server's resident memory once it has been idle a while (V8 shrinks its heap when the mutator idles): the lowest of 10 samples over 5 s. */
const settledRssMb = async (pid) => {
  let low = Infinity;
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 500));
    low = Math.min(low, rssMb(pid));
  }
  return low;
};

rmSync(WORK, { recursive: true, force: true });
mkdirSync(join(WORK, 'specs'), { recursive: true });
const file = join(WORK, 'specs/big.yaml');
let text = syntheticSpec(TOOLS, 'big');
writeFileSync(file, text);
const uri = pathToFileURL(file).href;

const child = spawn(process.execPath, ['--expose-gc', ...(process.env.LSP_NODE_ARGS ?? '').split(' ').filter(Boolean), join(ROOT, 'bin/mcpgen.js'), 'lsp', '--stdio'], { cwd: WORK, stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
let waiting;
connection.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri === uri && waiting?.(p)) waiting = undefined;
});
connection.listen();
/** The diagnostics published for this version of the text; `count` of them, or the bench is wrong. */
const published = (version, count) => new Promise((done, fail) => {
  const timer = setTimeout(() => fail(new Error(`no diagnostics for version ${version} within 60 s`)), 60_000);
  waiting = (p) => {
    if (p.version !== version) return false;
    clearTimeout(timer);
    if (p.diagnostics.length === count) done();
    else fail(new Error(`version ${version}: ${p.diagnostics.length} diagnostics, expected ${count}: ${JSON.stringify(p.diagnostics.slice(0, 3))}`));
    return true;
  };
});
/** Heaps after a full collection (server, checker) and settled RSS, in MB. */
const memory = async () => {
  const rss = await settledRssMb(child.pid);
  const m = await connection.sendRequest('mcpgen/memory');
  return { server: m.serverHeap / MB, checker: m.checkerHeap / MB, rss };
};
const position = (offset) => {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
};

try {
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(WORK).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification('initialized', {});
  // A typo first, so that the opening check publishes something to wait for.
  const starts = [...text.matchAll(/\n {4}description: Synthetic tool number/g)].map((m) => m.index + 5 + 'descr'.length);
  text = text.slice(0, starts[0]) + text.slice(starts[0] + 1);
  const first = published(1, 1);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  await first;
  const times = [];
  const marks = new Map([Math.round(EDITS / 10), Math.round(EDITS / 2), EDITS].map((n) => [n, undefined]));
  let broken = new Set([0]);
  let version = 1;
  /** The next edit: the promise of its diagnostics. */
  const edit = () => {
    const e = version - 1;
    // Alternate: mend the typo made last, then make one in another tool.
    const tool = e % 2 === 0 ? [...broken][0] : (e * 397) % starts.length;
    const shift = (k) => starts[k] - [...broken].filter((b) => b < k).length;
    const at = shift(tool);
    const mend = broken.has(tool);
    const change = mend ? { range: { start: position(at), end: position(at) }, text: 'i' } : { range: { start: position(at), end: position(at + 1) }, text: '' };
    text = mend ? text.slice(0, at) + 'i' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    if (mend) broken.delete(tool);
    else broken.add(tool);
    version++;
    const done = published(version, broken.size);
    void connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    return done;
  };
  const hovers = [];
  for (let e = 0; e < EDITS; e++) {
    const began = performance.now();
    await edit();
    times.push(performance.now() - began);
    if ((e + 1) % HOVER_EVERY === 0) {
      // One more edit, and a hover on the large spec sent right after it, while it is checked: the server
      // answers on its main thread (the worker checks), reading the edited spec first. Not in the edits' times.
      const done = edit();
      const asked = performance.now();
      await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: position(starts[starts.length >> 1] + 3) });
      hovers.push(performance.now() - asked);
      await done;
    }
    if (marks.has(e + 1)) marks.set(e + 1, await memory());
    if (process.env.LSP_TRACE && (e + 1) % 50 === 0) console.log(`edit ${e + 1}: RSS ${rssMb(child.pid).toFixed(0)} MB, p50 so far ${pct(times, 50).toFixed(0)} ms`);
  }
  console.log(`mcpgen lsp, ${TOOLS} tools, one-character edit → its diagnostics: p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms over ${EDITS} edits (max ${Math.max(...times).toFixed(0)}; target p95 ≤ 100 ms: ${pct(times, 95) <= 100 ? 'met' : 'NOT met'})`);
  console.log(`  hover on the ${TOOLS}-tool spec right after an edit (during its check): p50 ${pct(hovers, 50).toFixed(0)} ms, p95 ${pct(hovers, 95).toFixed(0)} ms, max ${Math.max(...hovers).toFixed(0)} ms over ${hovers.length} (one after every ${HOVER_EVERY} timed edits)`);
  for (const [n, m] of marks) console.log(`  after ${n} edits: heap after GC: server ${m.server.toFixed(1)} MB, checker ${m.checker.toFixed(1)} MB; RSS (settled) ${m.rss.toFixed(0)} MB`);
  const [from, to] = [[...marks.values()][0], [...marks.values()].at(-1)];
  const firstMark = [...marks.keys()][0];
  const grown = { server: to.server - from.server, checker: to.checker - from.checker };
  const flat = grown.server <= HEAP_TOLERANCE_MB && grown.checker <= HEAP_TOLERANCE_MB;
  console.log(`  heap grew from edit ${firstMark} to ${EDITS}: server ${grown.server.toFixed(1)} MB, checker ${grown.checker.toFixed(1)} MB (${(((grown.server + grown.checker) * 1024) / (EDITS - firstMark)).toFixed(2)} KB per edit together); RSS ${(to.rss - from.rss).toFixed(0)} MB; target: memory flat, each thread's heap growth ≤ ${HEAP_TOLERANCE_MB} MB: ${flat ? 'met' : 'NOT met'}`);
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
} finally {
  setTimeout(() => child.kill('SIGKILL'), 2000).unref();
}
