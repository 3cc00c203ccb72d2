// Toolsets and read-only mode over the HTTP fast path (packages/runtime/src/server/transport/fast-path.ts),
// with the official SDK client: the generated hub package of test/e2e/toolsets.test.ts, served in process
// per configuration (server options `toolsets`, `readOnly`) through a factory that counts the SDK Servers
// it builds. Once the client's envelope and each list page are learnt, the four lists and every exposed
// tool's call are answered by the fast path (no Server built), and list and answer exactly the
// configuration's members; a call outside the set is refused as an unknown tool before any handler runs (the
// fast path's tool table is the deployment's, so it does not know the name and hands the request to the SDK
// path, which answers -32602 as for a name that never existed).
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, createServerFactory, exposedDefinition, listen, type ServerDefinition, type ServerOptions } from '../../packages/runtime/src/server/index.js';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT } from '../support/servers.js';
import { ALL, ALL_READ_ONLY, DEFAULT, REPOS, TOOLSETS_HANDLERS, TOOLSETS_SPEC, exposed, type Exposed } from '../support/toolsets-hub.js';

const DIR = join(ROOT, '.tmp/toolsets-fast-path-e2e');
let spec: ServerDefinition;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'hub', TOOLSETS_SPEC, { 'handlers.ts': TOOLSETS_HANDLERS });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
  spec = ((await import(join(built.js, 'definition.js'))) as { definition: ServerDefinition }).definition;
}, 120_000);

/** Handlers that record each run (by tool name) and answer `<tool> ran`; resources and prompts answer plainly. */
function recordingHandlers(def: ServerDefinition): { handlers: Record<string, () => Promise<string>>; ran: string[] } {
  const ran: string[] = [];
  const handlers: Record<string, () => Promise<string>> = {};
  for (const t of def.tools) handlers[t.method] = async () => (ran.push(t.definition.name), `${t.definition.name} ran`);
  for (const r of [...def.resources, ...def.resourceTemplates, ...def.prompts] as { method: string }[]) handlers[r.method] = async () => 'ok';
  return { handlers, ran };
}

/** The configuration served on 127.0.0.1 as createMcpgenServer wires it, its factory counting the SDK Servers built. */
async function serve(options: ServerOptions) {
  const def = exposedDefinition(spec, options);
  const { handlers, ran } = recordingHandlers(spec);
  const factory = createServerFactory(def, handlers, options);
  let built = 0;
  const counted = Object.assign((instance?: Parameters<typeof factory>[0]) => (built++, factory(instance)), { fast: factory.fast! });
  const running = await listen(createHttpHandler(counted, def, { endpointPath: '/mcp' }), {});
  return { url: running.url, ran, built: () => built, close: () => running.close(100) };
}

// [configuration, server options, what is exposed, a tool outside it]
const CASES: [string, ServerOptions, Exposed, string | undefined][] = [
  ['spec defaults', {}, DEFAULT, 'list_repos'],
  ["toolsets: ['repos']", { toolsets: ['repos'] }, REPOS, 'create_issue'],
  ["toolsets: 'all'", { toolsets: 'all' }, ALL, undefined],
  ["toolsets: 'all', readOnly", { toolsets: 'all', readOnly: true }, ALL_READ_ONLY, 'delete_repo'],
  ['readOnly (defaults)', { readOnly: true }, { ...DEFAULT, tools: ['list_issues', 'whoami'] }, 'create_issue'],
];

describe('toolsets and read-only mode over the HTTP fast path, official SDK client', () => {
  it.each(CASES)('%s', async (_name, options, want, outside) => {
    const server = await serve(options);
    const client = new Client({ name: 'toolsets-fast-path', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      // The first round teaches the fast path the envelope and each list page (served by the SDK path).
      for (let round = 0; round < 2; round++) {
        const before = server.built();
        expect(await exposed(client)).toEqual(want);
        for (const tool of want.tools) expect((await client.callTool({ name: tool, arguments: {} })).content).toEqual([{ type: 'text', text: `${tool} ran` }]);
        // The second round: every list and call answered by the fast path, no SDK Server built.
        if (round === 1) expect(server.built() - before).toBe(0);
      }
      expect(server.ran.sort()).toEqual([...want.tools, ...want.tools].sort());
      if (outside !== undefined) {
        await expect(client.callTool({ name: outside, arguments: {} })).rejects.toThrow(`Unknown tool: ${outside}`);
        expect(server.ran).not.toContain(outside);
        // Hidden prompts are unknown too.
        const hiddenPrompt = ALL.prompts.find((p) => !want.prompts.includes(p));
        if (hiddenPrompt !== undefined) await expect(client.getPrompt({ name: hiddenPrompt })).rejects.toThrow();
      }
    } finally {
      await client.close();
      await server.close();
    }
  }, 60_000);
});
