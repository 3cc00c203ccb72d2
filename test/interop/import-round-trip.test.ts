// Issue 27 must-show: five real published servers (test/support/import-servers.ts; pinned in
// test/import-servers, installed by `npm run test:interop`) imported with `import mcp`, checked with 0 errors,
// generated, compiled, served over HTTP by the generated main.js, and imported again on both eras: every list
// deep-equal to the original's. Then the validation-verdict table: per tool, arguments made from its input
// schema (argument-cases.ts) sent to the original and to the generated server, the same verdict from both.
// Both reads go through the same official SDK client (import's), so both see the wire through its parse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importMcp, type ServerDump } from '../../src/import/mcp/index.js';
import { argumentCases, verdictOf } from '../support/argument-cases.js';
import { generateAndCompile } from '../support/generated-package.js';
import { assertInstalled, publishedServers, SERVERS, type PublishedServer } from '../support/import-servers.js';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';
import { checkVerdicts, type KnownDifference, type VerdictRow } from '../support/verdict-table.js';

/** Every handler answers; only the lists and the argument validation are compared here. */
const HANDLERS = `export const handlers = new Proxy({}, { get: () => () => 'ok' }) as never;\n`;

const CASES = publishedServers();

/**
 * Verdicts that differ, as data with the reason. A row (server, tool, case kind, property) that differs must
 * match an entry, and every entry must still match a differing row (a stale one fails).
 */
const COERCED = 'zod `z.coerce.string()`: the original turns 12345 into "12345", while its published schema says `type: string`, which the generated server follows';
const REFINED = (rule: string) => `a zod refinement the published JSON Schema does not carry (${rule}): the original refuses arguments the schema accepts`;
const VERDICT_DIFFERENCES: readonly KnownDifference[] = [
  ...['project_id', 'group_id', 'namespace_id', 'user_id'].map((property) => ({ server: 'gitlab', kind: 'wrong type' as const, property, original: 'accepted' as const, reason: COERCED })),
  { server: 'gitlab', kind: 'wrong type', tools: ['discover_tools'], property: 'category', original: 'accepted', reason: 'the original does not validate this tool\'s arguments: 12345 reaches its handler, which fails with a TypeError (`trim is not a function`)' },
  { server: 'gitlab', kind: 'valid', tools: ['update_issue_note', 'update_merge_request_discussion_note'], original: 'refused', reason: REFINED('"only one of body or resolved"') },
  { server: 'gitlab', kind: 'valid', tools: ['protect_branch'], original: 'refused', reason: REFINED('access levels must be 0, 30, 40 or 60; the schema says integer') },
  { server: 'gitlab', kind: 'valid', tools: ['get_ci_catalog_resource'], original: 'refused', reason: REFINED('"exactly one of id or full_path"') },
  ...(['missing required', 'wrong type'] as const).map((kind) => ({
    server: 'server-everything', kind, tools: ['simulate-research-query'], original: 'accepted' as const,
    reason: 'taskSupport required: the original refuses every call without task augmentation (-32601) before it looks at the arguments; the generated server (task: required) checks the arguments first',
  })),
];

/**
 * The one list difference that remains, as data with its reason (import's leniency report names it per tool):
 * the 2025-11-25 `execution` field. `taskSupport: forbidden` is what an mcpgen tool without `task` means,
 * and `optional`/`required` become `task:` (the tasks extension, SEP-2663); either way the generated server
 * does not send `execution` in tools/list.
 */
function withoutExecution(d: ServerDump): ServerDump {
  return { ...d, tools: d.tools.map(({ execution: _execution, ...t }) => t) };
}

const lists = (d: ServerDump) => ({ serverInfo: d.serverInfo, instructions: d.instructions, meta: d.meta, tools: d.tools, resources: d.resources, resourceTemplates: d.resourceTemplates, prompts: d.prompts });
const stdio = (c: PublishedServer) => ({ command: process.execPath, args: [join(SERVERS, c.bin), ...c.args], env: { ...process.env, ...c.env } as Record<string, string>, ...(c.cwd === undefined ? {} : { cwd: c.cwd }) });

beforeAll(() => assertInstalled());

/**
 * The generated server of each package, started by its list test and kept for its verdict test (its
 * handlers answer every call alike and keep no state, so the second test sees what a fresh one would);
 * a verdict test run alone starts its own. All stopped after the file.
 */
const served = new Map<string, HttpProcess>();
afterAll(() => Promise.all([...served.values()].map((http) => http.stop())));

describe('published servers round-trip through import → generate → serve', () => {
  // Each list test below checks its server's `shows` on what the server really lists.
  it('the set has an SDK-v1/zod server, one with 50+ tools, one with $ref and oneOf/anyOf', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(5);
    expect(CASES.some((c) => c.shows?.keywords?.includes('http://json-schema.org/draft-07/schema#'))).toBe(true);
    expect(CASES.some((c) => (c.shows?.minTools ?? 0) >= 50)).toBe(true);
    expect(CASES.some((c) => c.shows?.keywords?.includes('$ref') && c.shows.keywords.includes('oneOf'))).toBe(true);
  });

  for (const c of CASES) {
    it(`${c.id}: every list served identically`, async () => {
      const original = await importMcp({ target: { kind: 'stdio', ...stdio(c) }, era: '2025' });
      const listed = JSON.stringify(original.dump.tools);
      expect(original.dump.tools.length).toBeGreaterThanOrEqual(c.shows?.minTools ?? 1);
      for (const keyword of c.shows?.keywords ?? []) expect(listed).toContain(JSON.stringify(keyword));
      const executing = original.dump.tools.filter((t) => t.execution !== undefined).map((t) => `tool ${String(t.name)}`);
      expect(original.leniency.filter((e) => e.path === '/execution').map((e) => e.item)).toEqual(executing);
      const dir = join(ROOT, `.tmp/round-trip-${c.id}`);
      const built = await generateAndCompile(dir, c.id, original.yaml, { 'handlers.ts': HANDLERS });
      expect(built.diagnostics.filter((d) => (d as { severity: string }).severity === 'error')).toEqual([]);
      expect(built.compileErrors).toEqual([]);
      const http = await startScript(join(built.js, 'main.js'));
      served.set(c.id, http);
      const again = await importMcp({ target: { kind: 'http', url: http.url }, era: '2025' });
      expect(lists(again.dump)).toEqual(lists(withoutExecution(original.dump)));
      // The published servers speak 2025-11-25 only; the generated one serves the same lists to a 2026-07-28 client.
      const modern = await importMcp({ target: { kind: 'http', url: http.url }, era: '2026' });
      expect(modern.dump.protocolVersion).toBe('2026-07-28');
      expect(lists(modern.dump)).toEqual(lists(withoutExecution(original.dump)));
      expect(parse(readFileSync(join(dir, `${c.id}.yaml`), 'utf8')).server.name).toBe(original.dump.serverInfo.name);
    }, 300_000);

    // Runs on the package the list test above generated, on the server it started.
    it(`${c.id}: the same validation verdicts for valid and invalid arguments per tool`, async () => {
      const original = new Client({ name: 'verdicts', version: '1' });
      await original.connect(new StdioClientTransport({ ...stdio(c), stderr: 'ignore' }));
      const http = served.get(c.id) ?? (await startScript(join(ROOT, `.tmp/round-trip-${c.id}/js/main.js`)));
      served.set(c.id, http);
      const generated = new Client({ name: 'verdicts', version: '1' });
      await generated.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const rows: VerdictRow[] = [];
      try {
        for (const tool of (await original.listTools()).tools) {
          const skipped = c.notCalled[tool.name] ?? c.notCalled['*'];
          for (const arg of argumentCases(tool.inputSchema)) {
            const want = skipped === undefined ? await verdictOf(original, tool.name, arg.args) : undefined;
            rows.push({ server: c.id, tool: tool.name, kind: arg.kind, property: arg.property, args: arg.args, expected: arg.expected, original: want, generated: await verdictOf(generated, tool.name, arg.args) });
          }
        }
      } finally {
        await original.close();
        await generated.close();
      }
      const outcome = checkVerdicts(rows, VERDICT_DIFFERENCES.filter((d) => d.server === c.id), join(ROOT, `.tmp/verdicts-${c.id}.json`));
      expect(outcome.unexplained).toEqual([]);
      expect(outcome.stale).toEqual([]);
      // Not called on the original: the generated server's verdict is what the published schema says.
      expect(outcome.notCalledOff).toEqual([]);
      expect(outcome.compared > 0).toBe(c.notCalled['*'] === undefined);
    }, 300_000);
  }
});
