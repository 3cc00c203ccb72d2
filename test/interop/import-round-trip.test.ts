// Issue 27 must-show, in part: real published servers (pinned in test/import-servers; install them with
// `npm ci --ignore-scripts` there) imported with `import mcp`, checked with 0 errors, generated, compiled,
// served over HTTP by the generated main.js, and imported again on both eras: every list deep-equal to the original's.
// Both reads go through the same official SDK client (import's), so both see the wire through its parse.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importMcp, type ServerDump } from '../../src/import/mcp/index.js';
import { ROOT, startScript } from '../support/servers.js';
import { generateAndCompile } from '../support/generated-package.js';

const SERVERS = join(ROOT, 'test/import-servers/node_modules');

/** Every handler answers; only the lists are compared here. */
const HANDLERS = `export const handlers = new Proxy({}, { get: () => () => 'ok' }) as never;\n`;

const CASES = [
  { id: 'server-memory', bin: '@modelcontextprotocol/server-memory/dist/index.js', env: { MEMORY_FILE_PATH: join(ROOT, '.tmp/round-trip-memory.jsonl') }, args: [] as string[] },
  { id: 'server-filesystem', bin: '@modelcontextprotocol/server-filesystem/dist/index.js', args: [join(ROOT, 'test/fixtures')], env: {} },
  { id: 'server-everything', bin: '@modelcontextprotocol/server-everything/dist/index.js', args: ['stdio'], env: {} },
  { id: 'notion', bin: '@notionhq/notion-mcp-server/bin/cli.mjs', env: { NOTION_TOKEN: 'ntn_test' }, args: [] as string[] },
];

/**
 * The one difference that remains, as data with its reason (import's leniency report names it per tool):
 * the 2025-11-25 `execution` field. `taskSupport: forbidden` is what an mcpgen tool without `task` means,
 * and `optional`/`required` become `task:` (the tasks extension, SEP-2663); either way the generated server
 * does not send `execution` in tools/list.
 */
function withoutExecution(d: ServerDump): ServerDump {
  return { ...d, tools: d.tools.map(({ execution: _execution, ...t }) => t) };
}

const lists = (d: ServerDump) => ({ serverInfo: d.serverInfo, instructions: d.instructions, tools: d.tools, resources: d.resources, resourceTemplates: d.resourceTemplates, prompts: d.prompts });

describe.skipIf(!existsSync(SERVERS))('published servers round-trip through import → generate → serve', () => {
  for (const c of CASES) {
    it(`${c.id}: every list served identically`, async () => {
      const original = await importMcp({ target: { kind: 'stdio', command: process.execPath, args: [join(SERVERS, c.bin), ...(c.args ?? [])], env: { ...process.env, ...c.env } as Record<string, string> }, era: '2025' });
      const executing = original.dump.tools.filter((t) => t.execution !== undefined).map((t) => `tool ${String(t.name)}`);
      expect(original.leniency.filter((e) => e.path === '/execution').map((e) => e.item)).toEqual(executing);
      const dir = join(ROOT, `.tmp/round-trip-${c.id}`);
      const built = await generateAndCompile(dir, c.id, original.yaml, { 'handlers.ts': HANDLERS });
      expect(built.diagnostics.filter((d) => (d as { severity: string }).severity === 'error')).toEqual([]);
      expect(built.compileErrors).toEqual([]);
      const http = await startScript(join(built.js, 'main.js'));
      try {
        const served = await importMcp({ target: { kind: 'http', url: http.url }, era: '2025' });
        expect(lists(served.dump)).toEqual(lists(withoutExecution(original.dump)));
        // The published servers speak 2025-11-25 only; the generated one serves the same lists to a 2026-07-28 client.
        const modern = await importMcp({ target: { kind: 'http', url: http.url }, era: '2026' });
        expect(modern.dump.protocolVersion).toBe('2026-07-28');
        expect(lists(modern.dump)).toEqual(lists(withoutExecution(original.dump)));
      } finally {
        await http.stop();
      }
      expect(parse(readFileSync(join(dir, `${c.id}.yaml`), 'utf8')).server.name).toBe(original.dump.serverInfo.name);
    }, 180_000);

    // Arguments missing a required property: the original refuses before its handler runs (no side effect),
    // and so must the generated server. Runs on the package the list test above generated.
    it(`${c.id}: the same refusals for arguments missing a required property`, async () => {
      const original = new Client({ name: 'verdicts', version: '1' });
      await original.connect(new StdioClientTransport({ command: process.execPath, args: [join(SERVERS, c.bin), ...(c.args ?? [])], env: { ...process.env, ...c.env } as Record<string, string>, stderr: 'ignore' }));
      const http = await startScript(join(ROOT, `.tmp/round-trip-${c.id}/js/main.js`));
      const generated = new Client({ name: 'verdicts', version: '1' });
      await generated.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      try {
        const tools = (await original.listTools()).tools.filter((t) => (t.inputSchema.required ?? []).length > 0);
        expect(tools.length).toBeGreaterThan(0);
        const refuses = async (client: Client, name: string) => {
          try {
            return (await client.callTool({ name, arguments: {} })).isError === true;
          } catch {
            return true;
          }
        };
        const verdicts = async (client: Client) => Promise.all(tools.map(async (t) => [t.name, await refuses(client, t.name)] as const));
        const want = await verdicts(original);
        expect(want.every(([, refused]) => refused)).toBe(true);
        expect(await verdicts(generated)).toEqual(want);
      } finally {
        await original.close();
        await generated.close();
        await http.stop();
      }
    }, 120_000);
  }
});
