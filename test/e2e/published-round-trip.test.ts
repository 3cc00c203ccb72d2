// Issue 27 must-show, in part: real published servers (pinned in test/import-servers; install them with
// `npm ci --ignore-scripts` there) imported with `import mcp`, checked with 0 errors, generated, compiled,
// served over HTTP by the generated main.js, and imported again: every list deep-equal to the original's.
// Both reads go through the same official SDK client (import's), so both see the wire through its parse.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importMcp, type ServerDump } from '../../src/import/mcp/index.js';
import { ROOT, startScript } from '../support/servers.js';
import { generateAndCompile } from '../support/generated-package.js';

const SERVERS = join(ROOT, 'test/import-servers/node_modules');

/** Every handler answers; only the lists are compared here. */
const HANDLERS = `export const handlers = new Proxy({}, { get: () => () => 'ok' }) as never;\n`;

const CASES = [
  { id: 'server-memory', bin: '@modelcontextprotocol/server-memory/dist/index.js', env: { MEMORY_FILE_PATH: join(ROOT, '.tmp/round-trip-memory.jsonl') } },
  { id: 'notion', bin: '@notionhq/notion-mcp-server/bin/cli.mjs', env: { NOTION_TOKEN: 'ntn_test' } },
];

/**
 * Differences that remain, as data with their reason (each also in import's leniency report):
 * - `execution: { taskSupport: 'forbidden' }` (2025-11-25 tasks era) is what an mcpgen tool without `task`
 *   means; the generated server does not send it.
 */
const KNOWN: Readonly<Record<string, (dump: ServerDump) => ServerDump>> = {
  'server-memory': (d) => ({ ...d, tools: d.tools.map(({ execution, ...t }) => ((execution as { taskSupport?: string } | undefined)?.taskSupport === 'forbidden' ? t : { ...t, execution })) }),
};

const lists = (d: ServerDump) => ({ serverInfo: d.serverInfo, instructions: d.instructions, tools: d.tools, resources: d.resources, resourceTemplates: d.resourceTemplates, prompts: d.prompts });

describe.skipIf(!existsSync(SERVERS))('published servers round-trip through import → generate → serve', () => {
  for (const c of CASES) {
    it(`${c.id}: every list served identically`, async () => {
      const original = await importMcp({ target: { kind: 'stdio', command: process.execPath, args: [join(SERVERS, c.bin)], env: { ...process.env, ...c.env } as Record<string, string> }, era: '2025' });
      if (KNOWN[c.id] !== undefined) expect(original.leniency.some((e) => e.path === '/execution' && /forbidden/.test(e.message))).toBe(true);
      const dir = join(ROOT, `.tmp/round-trip-${c.id}`);
      const built = await generateAndCompile(dir, c.id, original.yaml, { 'handlers.ts': HANDLERS });
      expect(built.diagnostics.filter((d) => (d as { severity: string }).severity === 'error')).toEqual([]);
      expect(built.compileErrors).toEqual([]);
      const http = await startScript(join(built.js, 'main.js'));
      try {
        const served = await importMcp({ target: { kind: 'http', url: http.url }, era: '2025' });
        const known = KNOWN[c.id] ?? ((d: ServerDump) => d);
        expect(lists(served.dump)).toEqual(lists(known(original.dump)));
      } finally {
        await http.stop();
      }
      expect(parse(readFileSync(join(dir, `${c.id}.yaml`), 'utf8')).server.name).toBe(original.dump.serverInfo.name);
    }, 180_000);
  }
});
