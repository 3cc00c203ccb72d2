// `npm run corpus`, phase 3: openapi-mcp-generator on the same sample (CORPUS_SAMPLE), its outcome per API
// to CORPUS_RESULTS (support/openapi-corpus-peer.ts says what is checked). Counts, never fails on a miss.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { DIRECTORY, serverNameOf } from '../../scripts/corpus/apis.mjs';
import { jsonUpstream } from '../support/openapi-corpus.js';
import { buildPeers, peerVersion, servePeers } from '../support/openapi-corpus-peer.js';
import { ROOT } from '../support/root.js';

const upstream = jsonUpstream();

it('the sample through openapi-mcp-generator', async () => {
  const ids = (process.env.CORPUS_SAMPLE ?? '').split(',').filter((id) => id !== '');
  const t0 = Date.now();
  const built = buildPeers(ids.map((id) => ({ id, file: join(DIRECTORY, `${id}.json`), name: serverNameOf(id) })));
  const t1 = Date.now();
  await servePeers(built, upstream.get(), upstream.answer);
  const seconds = { build: Math.round((t1 - t0) / 1000), serve: Math.round((Date.now() - t1) / 1000) };
  writeFileSync(process.env.CORPUS_RESULTS ?? join(ROOT, '.tmp/corpus-peer.json'), JSON.stringify({ version: peerVersion(), seconds, apis: built.map((b) => b.outcome) }, null, 1));
});
