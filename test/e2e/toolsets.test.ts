// Toolsets and read-only mode (docs/toolsets.md, issue 29): one generated package, compiled under the
// strict flags, started as its own main.js with --toolsets / MCPGEN_TOOLSETS / --read-only over HTTP on
// 127.0.0.1 and over stdio, read by the official SDK client. Each configuration lists exactly its members,
// and a call to a tool outside it is refused as an unknown tool with no handler run (the handlers count).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAndCompile } from '../support/generated-package.js';
import { ALL, CASES, TOOLSETS_HANDLERS, TOOLSETS_SPEC, exposed } from '../support/toolsets-hub.js';
import { ROOT, startScript } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/toolsets-e2e');
const MAIN = join(DIR, 'js/main.js');

// The client types: a deployment's client type has exactly its methods. `@ts-expect-error` lines are the
// controls: if the type let a hidden method through, the compile would fail on the unused directive.
const TYPES = `import type { HubClient, HubClientFor } from './client.js';
export async function uses(c: HubClient): Promise<void> {
  const byDefault: HubClientFor = c;
  await byDefault.listIssues();
  await byDefault.whoami();
  await byDefault.promptTriage();
  // @ts-expect-error list_repos is in toolset repos, not a default one
  await byDefault.listRepos();
  const repos: HubClientFor<'repos', 'read-only'> = c;
  await repos.listRepos();
  await repos.readRepo({ name: 'x' });
  // @ts-expect-error delete_repo is not readOnlyHint
  await repos.deleteRepo();
  // @ts-expect-error create_issue is in toolset issues
  await repos.createIssue();
  const both: HubClientFor<'issues' | 'repos'> = c;
  await both.deleteRepo();
  await both.createIssue();
}
`;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'hub', TOOLSETS_SPEC, { 'handlers.ts': TOOLSETS_HANDLERS, 'uses.ts': TYPES });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
}, 120_000);

async function officialClient(transport: 'http' | 'stdio', flags: string[], env: Record<string, string>) {
  const client = new Client({ name: 'toolsets-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if (transport === 'http') {
    const server = await startScript(MAIN, flags, { env });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return { client, stderr: server.stderr, stop: async () => { await client.close(); await server.stop(); } };
  }
  const stdio = new StdioClientTransport({ command: process.execPath, args: [MAIN, ...flags], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  let stderr = '';
  stdio.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  await client.connect(stdio);
  return { client, stderr: () => stderr, stop: () => client.close() };
}

describe.each(['http', 'stdio'] as const)('toolsets over %s, official SDK client', (transport) => {
  it.each(CASES)('%s', async (_name, flags, env, want, outside) => {
    const { client, stderr, stop } = await officialClient(transport, flags, env);
    try {
      expect(await exposed(client)).toEqual(want);
      for (const tool of want.tools) expect((await client.callTool({ name: tool, arguments: {} })).content).toEqual([{ type: 'text', text: `${tool} ran` }]);
      if (outside !== undefined) {
        await expect(client.callTool({ name: outside, arguments: {} })).rejects.toThrow(`Unknown tool: ${outside}`);
        // Hidden resources and prompts are unknown too.
        const hiddenPrompt = ALL.prompts.find((p) => !want.prompts.includes(p));
        if (hiddenPrompt !== undefined) await expect(client.getPrompt({ name: hiddenPrompt })).rejects.toThrow();
        expect(stderr()).not.toContain(`ran ${outside}`);
      }
    } finally {
      await stop();
    }
  });
});

describe('server options and the generated client types agree', () => {
  it('createHubServer(handlers, { toolsets, readOnly }) serves what HubClientFor<S, Mode> has, and refuses the rest', async () => {
    const js = join(DIR, 'js');
    const { createHubServer } = await import(join(js, 'server.js'));
    const { handlers } = await import(join(js, 'handlers.js'));
    const { HubClient, HubToolsets } = await import(join(js, 'client.js'));
    const { definition } = await import(join(js, 'definition.js'));
    const methodOf = new Map<string, string>(definition.tools.map((t: { definition: { name: string }; method: string }) => [t.definition.name, t.method]));
    for (const [toolsets, readOnly] of [[['repos'], true], [['issues'], false], ['all', false]] as const) {
      const running = await createHubServer(handlers, { toolsets, readOnly }).listen({ port: 0 });
      const client = await HubClient.connect({ url: running.url });
      try {
        const listed = (await client.listAllTools()).map((t: { name: string }) => methodOf.get(t.name)).sort();
        // What the type keeps: methods of no toolset, of the chosen toolsets, minus writes when read-only.
        const grouped = new Set(Object.values(HubToolsets as Record<string, string[]>).flat());
        const chosen = new Set((toolsets === 'all' ? Object.keys(HubToolsets) : toolsets).flatMap((s) => (HubToolsets as Record<string, string[]>)[s]!));
        const readOnlyTools = new Set(definition.tools.filter((t: { definition: { annotations?: { readOnlyHint?: boolean } } }) => t.definition.annotations?.readOnlyHint === true).map((t: { method: string }) => t.method));
        const typed = [...methodOf.values()].filter((m) => (!grouped.has(m) || chosen.has(m)) && (!readOnly || readOnlyTools.has(m))).sort();
        expect(listed).toEqual(typed);
        const hidden = [...methodOf.values()].find((m) => !typed.includes(m));
        if (hidden !== undefined) await expect(client[hidden]()).rejects.toThrow('Unknown tool');
      } finally {
        await client.close();
        await running.close();
      }
    }
  });
  it('an unknown toolset in the server options throws with the known names', async () => {
    const { createHubServer } = await import(join(DIR, 'js/server.js'));
    const { handlers } = await import(join(DIR, 'js/handlers.js'));
    expect(() => createHubServer(handlers, { toolsets: ['repo'] })).toThrow('unknown toolset "repo" (did you mean repos?); known: issues, repos, all');
  });
});

describe('the generated README', () => {
  it('lists each toolset, its default mark and its members', () => {
    const readme = readFileSync(join(DIR, 'out/hub/README.md'), 'utf8');
    expect(readme).toContain('- `issues` (default) — Issues: `list_issues`, `create_issue`, `hub://issues/open`, `triage`\n');
    expect(readme).toContain('- `repos` — Repositories: `list_repos`, `delete_repo`, `hub://repos/all`, `hub://repos/{name}`, `release_notes`\n');
  });
});

describe('the entry point refuses what it cannot serve', () => {
  it('an unknown toolset exits 2 with a did-you-mean, before serving', () => {
    const r = spawnSync(process.execPath, [MAIN, '--toolsets', 'isues'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown toolset "isues" (did you mean issues?); known: issues, repos, all');
  });
  it('MCPGEN_READ_ONLY with a value that is not a switch is one line and exit 1 (a wrong value, not a usage error)', () => {
    const r = spawnSync(process.execPath, [MAIN], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, MCPGEN_READ_ONLY: 'yes' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('main.js: MCPGEN_READ_ONLY must be 1, true, 0 or false, got "yes"\n');
  });
});
