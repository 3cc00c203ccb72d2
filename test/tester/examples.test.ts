// `mcpgen test` against every generated example server (specs/ → generated/, compiled by the global setup):
// all pass, over stdio, and over Streamable HTTP for the servers whose tools mirror arguments into headers.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers.js';
import { compiledMain, startHttp } from '../support/servers.js';

// Tools left out, each for its reason: the fixtures built to fail, and the ones that wait or reach the network.
const EXAMPLES: readonly { spec: string; pkg: string; extra?: readonly string[] }[] = [
  { spec: 'dashboard', pkg: 'dashboard' },
  // test_error_handling answers isError by design; protocol_error_job fails with -32603 by design.
  { spec: 'everything', pkg: 'everything', extra: ['--exclude', 'test_error_handling,protocol_error_job'] },
  { spec: 'files', pkg: 'files' },
  { spec: 'inventory', pkg: 'inventory', extra: ['--include-destructive'] },
  // snapshot sleeps `ms` (up to 60 s) by design; import_feed fetches its URL; check_feed reports a feed's problems as isError.
  { spec: 'jobs', pkg: 'jobs', extra: ['--exclude', 'snapshot,import_feed,check_feed'] },
  { spec: 'prompts', pkg: 'prompts' },
  { spec: 'secure', pkg: 'secure-notes', extra: ['--include-destructive'] },
  { spec: 'sql', pkg: 'sql' },
  { spec: 'weather', pkg: 'weather' },
];

interface Case { item: string; check: string; example?: string; status: string; message?: string }

/** The example specs' `examples:`, as the run reports them. */
const EXAMPLE_CASES: Readonly<Record<string, readonly string[]>> = {
  weather: ['tool get_forecast example "Paris, tomorrow" passed', 'tool get_alerts example "California" passed', 'tool get_alerts example "no alerts" passed', 'tool add example 1 passed'],
  prompts: ['prompt summarize example "fifty words" passed'],
};

/** The JSON report's cases; failures as lines, so an assertion shows them. */
async function run(argv: string[]): Promise<{ code: number; cases: Case[]; failures: string[] }> {
  // A failing run saves its calls: into a temp folder, never the repository.
  const r = await cli(['test', '--reporter', 'json', '--save', join(tempDir(), 'failures.json'), ...argv]);
  if (r.stdout === '') throw new Error(r.stderr);
  const cases = (JSON.parse(r.stdout) as { cases: Case[] }).cases;
  return { code: r.code, cases, failures: cases.filter((c) => c.status === 'failed').map((c) => `${c.item} ${c.check}: ${c.message}`) };
}

describe('generated example servers', () => {
  for (const e of EXAMPLES) {
    it(`${e.spec} over stdio`, async () => {
      const r = await run([`specs/${e.spec}.yaml`, '--runs', '8', '--seed', '7', ...(e.extra ?? []), '--', process.execPath, compiledMain(e.pkg)]);
      expect(r.failures).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.cases[0]).toMatchObject({ item: 'server', check: 'lists', status: 'passed' });
      expect(r.cases.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(2);
      // The spec's examples run right after the lists, each by name, and pass.
      const examples = r.cases.filter((c) => c.check === 'example');
      expect(examples.map((c) => `${c.item} ${c.example} ${c.status}`)).toEqual(EXAMPLE_CASES[e.spec] ?? []);
      expect(r.cases.slice(1, 1 + examples.length)).toEqual(examples);
    });
  }

  for (const pkg of ['sql', 'everything']) {
    it(`${pkg} over Streamable HTTP, wire rules included`, async () => {
      const server = await startHttp(pkg);
      try {
        const extra = pkg === 'everything' ? ['--exclude', 'test_error_handling,protocol_error_job'] : ['--include-destructive'];
        const r = await run([`specs/${pkg}.yaml`, '--url', server.url, '--runs', '8', '--concurrency', '2', ...extra]);
        expect(r.failures).toEqual([]);
        expect(r.code).toBe(0);
        expect(r.cases.filter((c) => c.check === 'wire' && c.status === 'passed').length).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    });
  }
});
