import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import { dumpToYaml, importMcp, type ServerDump } from '../../src/import/mcp/index.js';

const PAGED = fileURLToPath(new URL('../fixtures/import/paged-server.mjs', import.meta.url));
const stdio = (env?: Record<string, string>) => ({ kind: 'stdio' as const, command: process.execPath, args: [PAGED], ...(env ? { env: { ...process.env, ...env } as Record<string, string> } : {}) });

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd: process.cwd(), stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), color: false });
  return { code, stdout, stderr };
}

describe('import mcp over stdio (2025 era, paged lists)', () => {
  it('follows nextCursor through every page of every list', async () => {
    const { dump, yaml } = await importMcp({ target: stdio(), era: '2025' });
    expect(dump.protocolVersion).toBe('2025-11-25');
    expect(dump.tools.map((t) => t.name)).toEqual(['tool_1', 'tool_2', 'tool_3', 'tool_4', 'tool_5']);
    expect(dump.resources).toHaveLength(3);
    expect(dump.prompts).toHaveLength(3);
    const spec = parse(yaml);
    // The initialize result's `_meta` (the client does not keep it; import reads it off the wire), reserved keys left out.
    expect(spec.server).toEqual({ name: 'Paged Server', version: '3.1.0', instructions: 'Use it.', _meta: { 'com.example/region': 'eu' } });
    expect(spec.tools).toHaveLength(5);
    expect(spec.prompts[0].arguments).toEqual([{ name: 'a', required: false }]);
  }, 30_000);

  it('runs from bin/mcpgen.js, whose code cache on Node 20 has no import() for the official client', () => {
    const r = spawnSync(process.execPath, [fileURLToPath(new URL('../../bin/mcpgen.js', import.meta.url)), 'import', 'mcp', '--era', '2025', '--', process.execPath, PAGED], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/needs the official MCP client/);
    expect(r.status).toBe(0);
    expect(parse(r.stdout).tools).toHaveLength(5);
  }, 30_000);

  it('refuses a server whose cursor repeats instead of looping', async () => {
    await expect(importMcp({ target: stdio({ PAGED_LOOP: '1' }), era: '2025' })).rejects.toThrow(/sent the cursor "2" twice/);
  }, 30_000);

  it('era auto falls back to initialize for a 2025-only server; the bytes are the same on a second import', async () => {
    const a = await importMcp({ target: stdio() });
    const b = await importMcp({ target: stdio() });
    expect(a.dump.protocolVersion).toBe('2025-11-25');
    expect(b.yaml).toBe(a.yaml);
  }, 30_000);

  it('reports what was dropped or changed and where the generated server answers differently', async () => {
    const { leniency } = await importMcp({ target: stdio(), era: '2025' });
    const lines = leniency.map((e) => `${e.item}|${e.kind}|${e.path}`);
    expect(lines).toContain('server|dropped|/capabilities/logging');
    expect(lines).toContain('server|dropped|/_meta/io.modelcontextprotocol/future');
    expect(lines).toContain('tool tool_3|dropped|/extraField');
    expect(lines).toContain('tool tool_4|changed|/execution');
    expect(lines).toContain('tool tool_5|behaviour|');
    expect(lines).toContain('tool tool_5|behaviour|/properties/o/properties/deep');
    expect(lines).toContain('resource test://r/1|dropped|/annotations');
    // top-level defaults are filled by the generated server: no entry
    expect(lines.filter((l) => l.startsWith('tool tool_1'))).toEqual([]);
  }, 30_000);
});

describe('import mcp --url (2026 era, SDK v2 server)', () => {
  let http: Server;
  let url: string;
  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'sdk-modern', version: '2.0.0', title: 'Modern' }, { instructions: 'Hello.' });
      const address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] };
      for (const name of ['ship', 'bill']) {
        server.registerTool(name, { title: `T ${name}`, description: name, inputSchema: fromJsonSchema({ type: 'object', properties: { to: address } } as never), annotations: { readOnlyHint: true } }, async () => ({ content: [] }));
      }
      server.registerPrompt('greet', { description: 'hi' }, async () => ({ messages: [] }));
      return server;
    }, { legacy: 'reject' });
    http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method!, headers, ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise((r) => http.close(r)));

  it('reads a 2026-07-28 server (era auto and pinned) and writes its tools as sent', async () => {
    for (const era of ['auto', '2026'] as const) {
      const { dump, yaml } = await importMcp({ target: { kind: 'http', url }, era });
      expect(dump.protocolVersion).toBe('2026-07-28');
      const spec = parse(yaml);
      expect(spec.server).toMatchObject({ name: 'sdk-modern', version: '2.0.0', title: 'Modern', instructions: 'Hello.' });
      expect(spec.tools.map((t: { name: string }) => t.name)).toEqual(['ship', 'bill']);
      expect(spec.tools[0].input).toEqual(dump.tools[0]!.inputSchema);
      expect(spec.tools[0].annotations).toEqual({ readOnlyHint: true });
    }
  }, 30_000);

  it('--hoist-defs moves the repeated address schema into $defs; off by default', async () => {
    const plain = parse((await importMcp({ target: { kind: 'http', url } })).yaml);
    expect(plain.$defs).toBeUndefined();
    const hoisted = await importMcp({ target: { kind: 'http', url }, hoistDefs: true });
    const spec = parse(hoisted.yaml);
    expect(hoisted.hoisted).toEqual(['To']);
    expect(spec.$defs.To).toMatchObject({ type: 'object', required: ['street'] });
    expect(spec.tools[0].input.properties.to).toEqual({ $ref: '#/$defs/To' });
    expect(spec.tools[1].input.properties.to).toEqual({ $ref: '#/$defs/To' });
    expect(hoisted.leniency.map((e) => e.path)).toContain('/$defs/To');
  }, 30_000);

  it('the CLI writes the spec to stdout and the summary to stderr', async () => {
    const r = await run(['import', 'mcp', '--url', url]);
    expect(r.code).toBe(0);
    expect(parse(r.stdout).tools).toHaveLength(2);
    expect(r.stderr).toMatch(/imported 2 tools, 0 resources, 0 resource templates, 1 prompts \(protocol 2026-07-28\)/);
  }, 30_000);
});

describe('import mcp: CLI errors are one clear line, never a stack', () => {
  const cases: [string, string[], number, RegExp][] = [
    ['no source', ['import'], 2, /import needs a source/],
    ['unknown source', ['import', 'openapi3'], 2, /unknown import source "openapi3"/],
    ['no server', ['import', 'mcp'], 2, /needs the server: `--url URL`/],
    ['both', ['import', 'mcp', '--url', 'http://127.0.0.1:1/mcp', '--', 'node'], 2, /either --url or/],
    ['not a URL', ['import', 'mcp', '--url', 'nope'], 2, /is not a URL/],
    ['bad era', ['import', 'mcp', '--era', '2024', '--url', 'http://x'], 2, /--era must be one of auto, 2025, 2026/],
    ['bad timeout', ['import', 'mcp', '--timeout', 'soon', '--url', 'http://x'], 2, /--timeout must be a positive number/],
    ['unreachable URL', ['import', 'mcp', '--url', 'http://127.0.0.1:1/mcp', '--timeout', '5000'], 1, /cannot connect to http:\/\/127\.0\.0\.1:1\/mcp/],
    ['missing command', ['import', 'mcp', '--timeout', '5000', '--', '/nonexistent/mcp-server'], 1, /cannot connect to \/nonexistent\/mcp-server/],
  ];
  it.each(cases)('%s', async (_name, argv, code, message) => {
    const r = await run(argv);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(code);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});

describe('dumpToYaml', () => {
  it('writes keys in wire order, no anchors for shared objects', () => {
    const shared = { type: 'object', properties: { a: { type: 'string' } } };
    const dump: ServerDump = { protocolVersion: '2026-07-28', serverInfo: { name: 'x', version: '1' }, instructions: undefined, capabilities: { tools: {} }, tools: [{ name: 'a', inputSchema: shared }, { name: 'b', inputSchema: shared }], resources: [], resourceTemplates: [], prompts: [] };
    const { yaml } = dumpToYaml(dump, 'test', false);
    expect(yaml).not.toMatch(/[&*]a\d/);
    expect(parse(yaml).tools[1].input).toEqual(shared);
  });
});
