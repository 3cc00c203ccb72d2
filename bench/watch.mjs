// node bench/watch.mjs: `generate --watch` on a 1,000-tool spec, one tool's description edited per save.
// Reports the median time from the save (the spec written, before the fs event) to the watch's
// "wrote …" line, printed once every output file is current. WATCH_EDITS (default 12) edits,
// WATCH_TOOLS (default 1000) tools; WATCH_NODE_ARGS adds node flags to the watch (e.g. `--cpu-prof`). Target (issue 33): ≤ 150 ms.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { syntheticSpec } from './synthetic-spec.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp/bench-watch');
const EDITS = Number(process.env.WATCH_EDITS ?? 12);
const TOOLS = Number(process.env.WATCH_TOOLS ?? 1000);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

rmSync(WORK, { recursive: true, force: true });
mkdirSync(join(WORK, 'specs'), { recursive: true });
const spec = join(WORK, 'specs/big.yaml');
const original = syntheticSpec(TOOLS, 'big');
writeFileSync(spec, original);
writeFileSync(join(WORK, 'mcpgen.config.yaml'), 'specs: [specs/*.yaml]\nout: generated\n');

const child = spawn(process.execPath, [...(process.env.WATCH_NODE_ARGS ?? '').split(' ').filter(Boolean), join(ROOT, 'bin/mcpgen.js'), 'generate', '--watch'], { cwd: WORK, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
let waiting;
child.stderr.on('data', (c) => {
  stderr += c.toString();
  if (waiting !== undefined && /wrote \d+ file/.test(stderr)) waiting();
});
const next = (what) => new Promise((ok, fail) => {
  const timer = setTimeout(() => fail(new Error(`no ${what} within 60 s:\n${stderr}`)), 60_000);
  waiting = () => {
    clearTimeout(timer);
    waiting = undefined;
    ok();
  };
  if (/wrote \d+ file|for spec changes/.test(stderr)) waiting();
});

try {
  await new Promise((ok, fail) => {
    // A watcher that exits before it is ready (a bad spec, a crash) ends the bench with its output, not a hang.
    const exited = (code, signal) => (clearInterval(poll), fail(new Error(`generate --watch exited (${code ?? signal}) before it was watching:\n${stderr}`)));
    const poll = setInterval(() => stderr.includes('for spec changes') && (clearInterval(poll), child.off('exit', exited), ok()), 20);
    child.once('exit', exited);
  });
  stderr = '';
  const times = [];
  for (let e = 0; e < EDITS; e++) {
    const tool = (e * 397) % TOOLS; // spread over the file
    const text = original.replace(`Synthetic tool number ${tool}, for benchmarks.`, `Synthetic tool number ${tool}, edit ${e}.`);
    await new Promise((r) => setTimeout(r, 150)); // let the last run's events settle
    stderr = '';
    const done = next('regeneration');
    const began = performance.now();
    writeFileSync(spec, text);
    await done;
    times.push(performance.now() - began);
    const definition = readFileSync(join(WORK, 'generated/big/definition.ts'), 'utf8');
    if (!definition.includes(`edit ${e}.`)) throw new Error(`edit ${e} did not reach definition.ts`);
  }
  console.log(`generate --watch, ${TOOLS} tools, one-tool edit → every output file current: median ${median(times).toFixed(0)} ms over ${EDITS} edits (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; target ≤ 150 ms)`);
} finally {
  child.kill('SIGINT');
}
