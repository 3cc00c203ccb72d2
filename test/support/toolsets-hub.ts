// The spec and handlers of the toolsets tests (test/e2e/toolsets.test.ts over HTTP and stdio,
// test/e2e/toolsets-fast-path.test.ts over the HTTP fast path): two toolsets, `issues` the default one,
// tools with and without readOnlyHint, and what each deployment configuration exposes.

import type { Client } from '@modelcontextprotocol/client';

export const TOOLSETS_SPEC = `mcpgen: 1
server: { name: hub, version: 1.0.0 }
tools:
  - name: list_issues
    annotations: { readOnlyHint: true }
  - name: create_issue
    annotations: { readOnlyHint: false }
  - name: list_repos
    annotations: { readOnlyHint: true }
  - name: delete_repo
  - name: whoami
    annotations: { readOnlyHint: true }
resources:
  - { uri: "hub://issues/open", name: open_issues }
  - { uri: "hub://repos/all", name: all_repos }
resourceTemplates:
  - { uriTemplate: "hub://repos/{name}", name: repo }
prompts:
  - name: triage
  - name: release_notes
toolsets:
  issues:
    description: Issues
    default: true
    tools: [list_issues, create_issue]
    resources: ["hub://issues/open"]
    prompts: [triage]
  repos:
    description: Repositories
    tools: [list_repos, delete_repo]
    resources: ["hub://repos/all"]
    resourceTemplates: ["hub://repos/{name}"]
    prompts: [release_notes]
`;

// Every handler records that it ran (to stderr, which the test reads for the refused call).
export const TOOLSETS_HANDLERS = `import type { HubHandlers } from './server.js';
const ran = (name: string) => { process.stderr.write('ran ' + name + '\\n'); return name + ' ran'; };
export const handlers: HubHandlers = {
  async listIssues() { return ran('list_issues'); },
  async createIssue() { return ran('create_issue'); },
  async listRepos() { return ran('list_repos'); },
  async deleteRepo() { return ran('delete_repo'); },
  async whoami() { return ran('whoami'); },
  async readOpenIssues() { return 'open'; },
  async readAllRepos() { return 'all'; },
  async readRepo() { return 'repo'; },
  async promptTriage() { return 'triage'; },
  async promptReleaseNotes() { return 'notes'; },
};
`;

export interface Exposed {
  readonly tools: string[];
  readonly resources: string[];
  readonly templates: string[];
  readonly prompts: string[];
}

/** What a configuration exposes, as the official client lists it. */
export async function exposed(client: Client): Promise<Exposed> {
  return {
    tools: (await client.listTools()).tools.map((t) => t.name).sort(),
    resources: (await client.listResources()).resources.map((r) => r.uri).sort(),
    templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort(),
    prompts: (await client.listPrompts()).prompts.map((p) => p.name).sort(),
  };
}

export const DEFAULT: Exposed = { tools: ['create_issue', 'list_issues', 'whoami'], resources: ['hub://issues/open'], templates: [], prompts: ['triage'] };
export const REPOS: Exposed = { tools: ['delete_repo', 'list_repos', 'whoami'], resources: ['hub://repos/all'], templates: ['hub://repos/{name}'], prompts: ['release_notes'] };
export const ALL: Exposed = { tools: ['create_issue', 'delete_repo', 'list_issues', 'list_repos', 'whoami'], resources: ['hub://issues/open', 'hub://repos/all'], templates: ['hub://repos/{name}'], prompts: ['release_notes', 'triage'] };
export const ALL_READ_ONLY: Exposed = { ...ALL, tools: ['list_issues', 'list_repos', 'whoami'] };

// [configuration, flags, environment, what is exposed, a tool outside it]
export const CASES: [string, string[], Record<string, string>, Exposed, string | undefined][] = [
  ['spec defaults', [], {}, DEFAULT, 'list_repos'],
  ['--toolsets repos', ['--toolsets', 'repos'], {}, REPOS, 'create_issue'],
  ['MCPGEN_TOOLSETS=all', [], { MCPGEN_TOOLSETS: 'all' }, ALL, undefined],
  ['--toolsets wins over MCPGEN_TOOLSETS', ['--toolsets', 'repos'], { MCPGEN_TOOLSETS: 'issues' }, REPOS, 'list_issues'],
  ['--toolsets all --read-only', ['--toolsets', 'all', '--read-only'], {}, ALL_READ_ONLY, 'delete_repo'],
  ['MCPGEN_READ_ONLY=1 (defaults)', [], { MCPGEN_READ_ONLY: '1' }, { ...DEFAULT, tools: ['list_issues', 'whoami'] }, 'create_issue'],
];
