// Dynamic discovery (docs/toolsets.md#dynamic-discovery, issue 29 item 2): a spec with `discovery:` is
// generated and compiled under the strict flags, started as its own main.js over HTTP on 127.0.0.1 and
// over stdio, and driven by the official SDK client: the first tools/list is small, a tool of a toolset
// not enabled is an unknown tool (its handler never runs), enable_toolset sends tools/list_changed to the
// caller's listen stream, the list grows and the call works; disable_toolset undoes it. Behind `auth:` the
// enabled set is the principal's: another token sees the initial list and hears nothing.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMcpgenServer, InvalidTokenError, type AuthPrincipal, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { DISCOVERY_HANDLERS, DISCOVERY_SPEC, INITIAL_TOOLS as INITIAL, WITH_REPOS } from '../support/discovery-hub.js';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT, startScript } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/discovery-e2e');
const MAIN = join(DIR, 'js/main.js');

// The generated client's discovery methods, typed by the spec's toolsets. The `@ts-expect-error` lines are
// the controls: a method missing, or a toolset parameter typed `string`, fails the compile.
const TYPES = `import type { HubClient, HubClientFor, HubToolset } from './client.js';
export async function uses(c: HubClient): Promise<boolean> {
  const listed = await c.listToolsets();
  const names: HubToolset[] = (listed.structuredContent?.toolsets ?? []).map((t) => t.name);
  const changed: boolean | undefined = (await c.enableToolset('repos')).structuredContent?.changed;
  await c.disableToolset('repos');
  // @ts-expect-error not a toolset of the spec
  await c.enableToolset('nope');
  // Discovery methods belong to no toolset: every deployment's client type has them.
  const issuesOnly: HubClientFor<'issues', 'read-only'> = c;
  await issuesOnly.enableToolset('issues');
  // @ts-expect-error list_repos is in toolset repos
  await issuesOnly.listRepos();
  return names.length > 0 && changed === true;
}
`;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'hub', DISCOVERY_SPEC, { 'handlers.ts': DISCOVERY_HANDLERS, 'uses.ts': TYPES });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
}, 120_000);

/** An official client pinned to 2026-07-28 that counts the tools/list_changed it hears. */
function listeningClient(): { client: Client; heard: () => number } {
  const client = new Client({ name: 'discovery-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
  return { client, heard: () => heard };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { text?: string }[])[0]?.text;

async function waitUntil(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

async function connect(transport: 'http' | 'stdio', client: Client) {
  if (transport === 'http') {
    const server = await startScript(MAIN, []);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return { stderr: server.stderr, stop: async () => { await client.close(); await server.stop(); } };
  }
  const stdio = new StdioClientTransport({ command: process.execPath, args: [MAIN], stderr: 'pipe' });
  let stderr = '';
  stdio.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  await client.connect(stdio);
  return { stderr: () => stderr, stop: () => client.close() };
}

describe.each(['http', 'stdio'] as const)('dynamic discovery over %s, official SDK client', (transport) => {
  it('starts small, refuses a tool not enabled, enables through enable_toolset with list_changed on the listen stream', async () => {
    const { client, heard } = listeningClient();
    const { stderr, stop } = await connect(transport, client);
    try {
      const sub = await client.listen({ toolsListChanged: true });
      expect(sub.honoredFilter).toMatchObject({ toolsListChanged: true });
      expect(await toolNames(client)).toEqual(INITIAL);
      await expect(client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('Unknown tool: list_repos');
      expect(stderr()).not.toContain('ran list_repos');

      const listed = await client.callTool({ name: 'list_toolsets', arguments: {} });
      expect(listed.structuredContent).toEqual({
        toolsets: [
          { name: 'issues', description: 'Issues', enabled: true, initial: true, tools: ['list_issues'] },
          { name: 'repos', description: 'Repositories', enabled: false, initial: false, tools: ['list_repos', 'delete_repo'] },
        ],
      });
      const enabled = await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } });
      expect(enabled.structuredContent).toEqual({ toolset: 'repos', changed: true, tools: ['list_repos', 'delete_repo'] });
      await waitUntil(() => heard() === 1);
      expect(heard()).toBe(1);
      expect(await toolNames(client)).toEqual(WITH_REPOS);
      expect(text(await client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran');

      // Enabling again changes nothing and says so: no notification.
      expect((await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: false });
      // An initial toolset stays; an unknown one is refused by the input schema (an enum of the toolsets).
      expect((await client.callTool({ name: 'disable_toolset', arguments: { toolset: 'issues' } })).isError).toBe(true);
      expect((await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'nope' } })).isError).toBe(true);

      expect((await client.callTool({ name: 'disable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: true });
      await waitUntil(() => heard() === 2);
      await new Promise((r) => setTimeout(r, 200)); // room for an extra one to show
      expect(heard()).toBe(2);
      expect(await toolNames(client)).toEqual(INITIAL);
      await expect(client.callTool({ name: 'delete_repo', arguments: {} })).rejects.toThrow('Unknown tool: delete_repo');
      expect(stderr()).not.toContain('ran delete_repo');
      await sub.close();
    } finally {
      await stop();
    }
  }, 60_000);
});

describe('the generated client', () => {
  it('enableToolset / listToolsets / disableToolset reach the discovery tools; a method of a toolset not enabled is refused', async () => {
    const { HubClient } = (await import(join(DIR, 'js/client.js'))) as { HubClient: { connect(target: { url: string }): Promise<Record<string, (...a: unknown[]) => Promise<{ structuredContent?: unknown; content: unknown[] }>> & { close(): Promise<void> }> } };
    const server = await startScript(MAIN, []);
    const hub = await HubClient.connect({ url: server.url });
    try {
      await expect(hub.listRepos!({})).rejects.toThrow('Unknown tool: list_repos');
      expect((await hub.enableToolset!('repos')).structuredContent).toEqual({ toolset: 'repos', changed: true, tools: ['list_repos', 'delete_repo'] });
      expect((await hub.listRepos!({})).content).toEqual([{ type: 'text', text: 'list_repos ran' }]);
      const listed = (await hub.listToolsets!()).structuredContent as { toolsets: { name: string; enabled: boolean }[] };
      expect(listed.toolsets.map((t) => [t.name, t.enabled])).toEqual([['issues', true], ['repos', true]]);
      expect((await hub.disableToolset!('repos')).structuredContent).toMatchObject({ changed: true });
      await expect(hub.listRepos!({})).rejects.toThrow('Unknown tool: list_repos');
    } finally {
      await hub.close();
      await server.stop();
    }
  }, 60_000);
});

describe('dynamic discovery behind auth: the enabled set is the principal\'s', () => {
  const principal = (subject: string): AuthPrincipal => ({ subject, clientId: 'app', scopes: [], claims: { sub: subject }, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  const verifier = {
    async verify(token: string) {
      if (token !== 'alice' && token !== 'bob') throw new InvalidTokenError('Unknown token');
      return principal(token);
    },
  };

  it('alice enables repos: alice hears list_changed and sees them, bob neither', async () => {
    const { definition } = (await import(join(DIR, 'js/definition.js'))) as { definition: ServerDefinition };
    const { handlers } = (await import(join(DIR, 'js/handlers.js'))) as { handlers: object };
    const def: ServerDefinition = { ...definition, auth: { authorizationServers: ['https://as.example'], scopes: {}, requiredScopes: [] } };
    const running = await createMcpgenServer(def, handlers, { auth: { verifier, resource: 'http://hub.test/mcp' } }).listen({ port: 0 });
    const as = async (token: string) => {
      const c = listeningClient();
      await c.client.connect(new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      await c.client.listen({ toolsListChanged: true });
      return c;
    };
    const alice = await as('alice');
    const bob = await as('bob');
    try {
      expect((await alice.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'repos' } })).structuredContent).toMatchObject({ changed: true });
      await waitUntil(() => alice.heard() === 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(alice.heard()).toBe(1);
      expect(bob.heard()).toBe(0);
      expect(await toolNames(alice.client)).toEqual(WITH_REPOS);
      expect(await toolNames(bob.client)).toEqual(INITIAL);
      await expect(bob.client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow('Unknown tool: list_repos');
      expect(text(await alice.client.callTool({ name: 'list_repos', arguments: {} }))).toBe('list_repos ran');
    } finally {
      await Promise.allSettled([alice.client.close(), bob.client.close()]);
      await running.close(100);
    }
  }, 60_000);
});
