// `npm run corpus`, phase 2 (scripts/corpus/run.mjs sets CORPUS_SAMPLE, the API ids, and CORPUS_RESULTS):
// the sample imported, generated, compiled, served and every tool called (support/openapi-corpus.ts); the
// outcome of each API goes to CORPUS_RESULTS. Counts, never fails on a miss: the run's summary lists them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { DIRECTORY, serverNameOf } from '../../scripts/corpus/apis.mjs';
import { buildCorpus, jsonUpstream, serveAndCall } from '../support/openapi-corpus.js';
import { ROOT } from '../support/root.js';

const DIR = join(ROOT, '.tmp/corpus-sample');
const upstream = jsonUpstream();

it('the sample, served and called', async () => {
  const ids = (process.env.CORPUS_SAMPLE ?? '').split(',').filter((id) => id !== '');
  const t0 = Date.now();
  const built = await buildCorpus(ids.map((id) => ({ id, file: join(DIRECTORY, `${id}.json`), name: serverNameOf(id) })), DIR);
  const t1 = Date.now();
  await serveAndCall(built, DIR, upstream.get(), upstream.answer);
  const seconds = { build: Math.round((t1 - t0) / 1000), serve: Math.round((Date.now() - t1) / 1000) };
  writeFileSync(process.env.CORPUS_RESULTS ?? join(DIR, 'sample.json'), JSON.stringify({ seconds, apis: built.map((b) => b.outcome) }, null, 1));
});
