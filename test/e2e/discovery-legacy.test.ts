// Dynamic discovery with 2025-11-25 clients (docs/toolsets.md#with-2025-11-25-clients): the official client
// with its default options opens with initialize, and the generated main.js serves it (protocol.legacy is on
// by default). Over stdio the connection is the client's one session: enable_toolset sends it
// notifications/tools/list_changed, as the 2025-11-25 revision has servers do. Over HTTP the legacy era is
// served stateless: the calling client hears it on its enable_toolset response stream, another 2025-11-25
// client of the same principal hears nothing (the documented limit) while its next tools/list sees the
// change, and a 2026-07-28 listen stream on the same server hears it.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_HANDLERS, DISCOVERY_SPEC, INITIAL_TOOLS as INITIAL, WITH_REPOS } from '../support/discovery-hub.js';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT, startScript } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/discovery-legacy-e2e');
const MAIN = join(DIR, 'js/main.js');

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'hub', DISCOVERY_SPEC, { 'handlers.ts': DISCOVERY_HANDLERS });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
}, 120_000);

/** An official client that counts the tools/list_changed it hears; `pin` 2026-07-28, else the default (2025-11-25 initialize). */
function countingClient(pin?: '2026-07-28'): { client: Client; heard: () => number } {
  const client = new Client({ name: 'discovery-legacy', version: '1.0.0' }, pin === undefined ? {} : { versionNegotiation: { mode: { pin } } });
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
  return { client, heard: () => heard };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { text?: string }[])[0]?.text;
const enable = (client: Client, toolset: string) => client.callTool({ name: 'enable_toolset', arguments: { toolset } });
const disable = (client: Client, toolset: string) => client.callTool({ name: 'disable_toolset', arguments: { toolset } });
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

describe('dynamic discovery with a 2025-11-25 client', () => {
  it('stdio: enable_toolset sends notifications/tools/list_changed on the connection, the list grows, disable undoes it', async () => {
    const { client, heard } = countingClient();
    const stdio = new StdioClientTransport({ command: process.execPath, args: [MAIN], stderr: 'pipe' });
    let stderr = '';
    stdio.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    await client.connect(stdio);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerCapabilities()?.tools).toMatchObject({ listChanged: true });
      expect(await toolNames(client)).toEqual(INITIAL);
      await expect(client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('list_repos');
      expect(stderr).not.toContain('ran list_repos');

      expect((await enable(client, 'repos')).structuredContent).toEqual({ toolset: 'repos', changed: true, tools: ['list_repos', 'delete_repo'] });
      await waitUntil(() => heard() === 1);
      expect(heard()).toBe(1);
      expect(await toolNames(client)).toEqual(WITH_REPOS);
      expect(text(await client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran');

      // Nothing changed: nothing sent.
      expect((await enable(client, 'repos')).structuredContent).toMatchObject({ changed: false });
      expect((await disable(client, 'repos')).structuredContent).toMatchObject({ changed: true });
      await waitUntil(() => heard() === 2);
      await settle();
      expect(heard()).toBe(2);
      expect(await toolNames(client)).toEqual(INITIAL);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('HTTP: the caller hears list_changed on its enable_toolset response; another 2025-11-25 client of the same principal hears nothing, its next tools/list sees the change', async () => {
    const server = await startScript(MAIN, []);
    const caller = countingClient();
    const other = countingClient();
    const modern = countingClient('2026-07-28');
    try {
      await caller.client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await other.client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      expect([caller.client.getNegotiatedProtocolVersion(), other.client.getNegotiatedProtocolVersion()]).toEqual(['2025-11-25', '2025-11-25']);
      await modern.client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      // Without auth every caller is the one anonymous principal: one enabled set for all three.
      const sub = await modern.client.listen({ toolsListChanged: true });

      expect(await toolNames(caller.client)).toEqual(INITIAL);
      expect((await enable(caller.client, 'repos')).structuredContent).toEqual({ toolset: 'repos', changed: true, tools: ['list_repos', 'delete_repo'] });
      // On the enable_toolset response stream, before the result: heard by the time the call returns.
      expect(caller.heard()).toBe(1);
      await waitUntil(() => modern.heard() === 1);
      await settle();
      expect(modern.heard()).toBe(1);
      // The limit: the 2025-11-25 era is served stateless, so no stream of ours reaches a client that did not make the call.
      expect(other.heard()).toBe(0);
      expect(caller.heard()).toBe(1);
      // What it does instead: its next tools/list (answered `ttlMs: 0`, never cached) has the tools.
      expect(await toolNames(other.client)).toEqual(WITH_REPOS);
      expect(text(await other.client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran');

      // Nothing changed: nothing sent.
      expect((await enable(other.client, 'repos')).structuredContent).toMatchObject({ changed: false });
      expect(other.heard()).toBe(0);
      expect((await disable(other.client, 'repos')).structuredContent).toMatchObject({ changed: true });
      expect(other.heard()).toBe(1);
      await waitUntil(() => modern.heard() === 2);
      await settle();
      expect(caller.heard()).toBe(1);
      expect(modern.heard()).toBe(2);
      expect(await toolNames(caller.client)).toEqual(INITIAL);
      await sub.close();
    } finally {
      await Promise.allSettled([caller.client.close(), other.client.close(), modern.client.close()]);
      await server.stop();
    }
  }, 60_000);
});
