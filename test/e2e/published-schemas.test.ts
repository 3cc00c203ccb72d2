// Issue 27 (schemas part) on a package generated from a spec shaped like what published servers send,
// compiled under the strict flags and served by its own main.js, read by the official SDK client on both eras:
// - `server.name` is free text (MCP Implementation.name): "Notion API" goes on the wire as written, while the
//   folder (notion-api) and the generated names (NotionAPIHandlers) are derived from it;
// - extra `annotations` keys and `_meta` on tools, resources, templates and prompts are sent as written, and a
//   prompt argument's `required: false` stays (it was dropped);
// - a draft-07 schema (what zod-to-json-schema emits) keeps `$schema` on the wire and arguments are judged
//   in draft-07 (tuple `items` + `additionalItems: false`, `definitions`), which 2020-12 reads differently.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';
import { generateAndCompile } from '../support/generated-package.js';

const DIR = join(ROOT, '.tmp/published-schemas');
const JS = join(DIR, 'js');

const DRAFT07_INPUT = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], minItems: 2, additionalItems: false },
    mode: { $ref: '#/definitions/Mode' },
  },
  required: ['pair'],
  additionalProperties: false,
  definitions: { Mode: { type: 'string', enum: ['fast', 'slow'] } },
};

const TOOL_META = { 'com.notion/category': 'pages', 'com.notion/conditions': ['workspace'] };

const SPEC = `mcpgen: 1
server: { name: Notion API, version: 2.5.2 }
tools:
  - name: pair
    input: ${JSON.stringify(DRAFT07_INPUT)}
    annotations: { readOnlyHint: true, category: pages, conditions: [workspace] }
    _meta: ${JSON.stringify(TOOL_META)}
resources:
  - { uri: 'notion://readme', name: readme, _meta: { com.notion/kind: doc } }
resourceTemplates:
  - { uriTemplate: 'notion://pages/{id}', name: page, _meta: { com.notion/kind: page } }
prompts:
  - name: summarize
    arguments:
      - { name: page, required: true }
      - { name: style, required: false }
      - { name: tone }
    _meta: { com.notion/kind: prompt }
`;

const HANDLERS = `import type { NotionAPIHandlers } from './server.js';
export const handlers: NotionAPIHandlers = {
  pair(args) {
    return JSON.stringify(args);
  },
  readReadme() {
    return 'readme';
  },
  readPage({ id }) {
    return id;
  },
  promptSummarize({ page }) {
    return page;
  },
};
`;

let http: HttpProcess;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'notion', SPEC, { 'handlers.ts': HANDLERS });
  // The extra annotation keys are carried, with a warning each.
  expect(built.diagnostics.map((d) => (d as { code: string }).code)).toEqual(['MCPG112', 'MCPG112']);
  expect(built.compileErrors).toEqual([]);
  http = await startScript(join(JS, 'main.js'));
}, 120_000);

afterAll(async () => {
  await http?.stop();
});

const clients = {
  '2025-11-25': () => new Client({ name: 'host-2025', version: '1' }),
  '2026-07-28': () => new Client({ name: 'host-2026', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
};

/** Every response body the client received: the SDK client's own parse drops annotation keys it does not know. */
const bodies: string[] = [];
const recording = async (input: string | URL | Request, init?: RequestInit) => {
  const response = await fetch(input, init);
  bodies.push(await response.clone().text());
  return response;
};

async function withClient<T>(make: () => Client, run: (c: Client) => Promise<T>): Promise<T> {
  const client = make();
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { fetch: recording }));
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

describe.each(Object.entries(clients))('served to a %s client', (_era, make) => {
  it('names the server as the spec wrote it; the folder is derived', async () => {
    const info = await withClient(make, async (c) => c.getServerVersion());
    expect(info?.name).toBe('Notion API');
    expect(existsSync(join(DIR, 'out', 'notion-api', 'server.ts'))).toBe(true);
  });

  it('sends the draft-07 schema unchanged, $schema included', async () => {
    const tools = await withClient(make, async (c) => (await c.listTools()).tools);
    expect(tools.find((t) => t.name === 'pair')!.inputSchema).toEqual(DRAFT07_INPUT);
  });

  it('carries extra annotation keys and _meta on tools, resources, templates and prompts; keeps required: false', async () => {
    bodies.length = 0;
    const lists = await withClient(make, async (c) => ({
      tool: (await c.listTools()).tools[0]!,
      resource: (await c.listResources()).resources[0]!,
      template: (await c.listResourceTemplates()).resourceTemplates[0]!,
      prompt: (await c.listPrompts()).prompts[0]!,
    }));
    // On the wire as written; the SDK client's parse keeps only the hints it knows.
    expect(bodies.some((b) => b.includes('"annotations":{"readOnlyHint":true,"category":"pages","conditions":["workspace"]}'))).toBe(true);
    expect(lists.tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(lists.tool._meta).toEqual(TOOL_META);
    expect(lists.resource._meta).toEqual({ 'com.notion/kind': 'doc' });
    expect(lists.template._meta).toEqual({ 'com.notion/kind': 'page' });
    expect(lists.prompt._meta).toEqual({ 'com.notion/kind': 'prompt' });
    expect(lists.prompt.arguments).toEqual([{ name: 'page', required: true }, { name: 'style', required: false }, { name: 'tone' }]);
  });

  it('judges arguments in draft-07: additionalItems and definitions count', async () => {
    const call = (args: Record<string, unknown>) => withClient(make, async (c) => c.callTool({ name: 'pair', arguments: args }));
    expect((await call({ pair: ['a', 1], mode: 'fast' })).isError).toBeFalsy();
    // Under 2020-12 `items` must be one schema and `additionalItems` means nothing: this would pass.
    const extra = await call({ pair: ['a', 1, 'extra'] });
    expect(extra.isError).toBe(true);
    const mode = await call({ pair: ['a', 1], mode: 'medium' });
    expect(mode.isError).toBe(true);
  });
});
