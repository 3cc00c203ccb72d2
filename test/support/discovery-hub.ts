// The spec and handlers of the dynamic discovery tests (test/e2e/discovery.test.ts over HTTP and stdio,
// test/interop/discovery-scale-out.test.ts behind nginx with Redis): two toolsets, `issues` initial.
// Every handler logs that it ran (stderr) and answers with the instance it ran on (INSTANCE_ID), if any.

export const DISCOVERY_SPEC = `mcpgen: 1
server: { name: hub, version: 1.0.0 }
tools:
  - name: whoami
  - name: list_issues
  - name: list_repos
  - name: delete_repo
toolsets:
  issues:
    description: Issues
    tools: [list_issues]
  repos:
    description: Repositories
    tools: [list_repos, delete_repo]
discovery:
  initial: [issues]
`;

export const DISCOVERY_HANDLERS = `import type { HubHandlers } from './server.js';
const ran = (name: string) => {
  process.stderr.write('ran ' + name + '\\n');
  return name + ' ran' + (process.env.INSTANCE_ID ? ' on ' + process.env.INSTANCE_ID : '');
};
export const handlers: HubHandlers = {
  async whoami() { return ran('whoami'); },
  async listIssues() { return ran('list_issues'); },
  async listRepos() { return ran('list_repos'); },
  async deleteRepo() { return ran('delete_repo'); },
};
`;

export const DISCOVERY_TOOLS = ['disable_toolset', 'enable_toolset', 'list_toolsets'];
/** tools/list before anything is enabled, sorted. */
export const INITIAL_TOOLS = [...DISCOVERY_TOOLS, 'list_issues', 'whoami'].sort();
/** tools/list once `repos` is enabled, sorted. */
export const WITH_REPOS = [...INITIAL_TOOLS, 'delete_repo', 'list_repos'].sort();
