// The published MCP servers the import round-trip test imports (pinned in test/import-servers/package.json,
// installed by `npm run test:interop`), with how each starts offline and without credentials.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './servers.js';

export const SERVERS = join(ROOT, 'test/import-servers/node_modules');
export const INSTALL = 'npm ci --prefix test/import-servers --no-audit --no-fund --ignore-scripts';

export interface PublishedServer {
  readonly id: string;
  /** Why this one is in the set (the issue asks for an SDK-v1/zod server, one with 50+ tools, one with deep $ref/oneOf). */
  readonly why: string;
  readonly bin: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The server's working folder for calls: a fresh temp folder, so that a call that writes stays in it. */
  readonly cwd?: string;
  /** What makes it the case the issue asks for, checked on what it lists: at least this many tools, these schema keywords. */
  readonly shows?: { readonly minTools?: number; readonly keywords?: readonly string[] };
  /** Tools whose calls are not sent to the original, with the reason (network, time); the generated one still gets them. */
  readonly notCalled: Readonly<Record<string, string>>;
}

/** Fails with the install command rather than letting the round-trip test skip. */
export function assertInstalled(): void {
  if (!existsSync(SERVERS)) throw new Error(`the published servers are not installed: run \`${INSTALL}\` (npm run test:interop does)`);
}

// Tools that would reach the network from the original: no call reaches the internet from a test.
const NOTION_NETWORK = 'the Notion server validates nothing itself and forwards every call to api.notion.com';

export function publishedServers(): PublishedServer[] {
  const work = mkdtempSync(join(tmpdir(), 'mcpgen-import-'));
  return [
    {
      id: 'server-memory', why: 'SDK v1, zod (draft-07 schemas)', bin: '@modelcontextprotocol/server-memory/dist/index.js', args: [], shows: { keywords: ['http://json-schema.org/draft-07/schema#'] },
      env: { MEMORY_FILE_PATH: join(work, 'memory.jsonl') }, notCalled: {},
    },
    {
      id: 'server-filesystem', why: 'SDK v1, zod; writes files (calls run in a temp folder it is confined to)', bin: '@modelcontextprotocol/server-filesystem/dist/index.js',
      args: [work], env: {}, cwd: work, notCalled: {},
    },
    {
      id: 'server-everything', why: 'every MCP feature: resources, templates, prompts, structured output, tasks', bin: '@modelcontextprotocol/server-everything/dist/index.js', args: ['stdio'], env: {},
      notCalled: {
        'gzip-file-as-resource': 'its default `data` is an https URL the server downloads',
        'trigger-long-running-operation': 'runs for `duration` seconds (default 10) by design',
      },
    },
    {
      id: 'notion', why: 'an OpenAPI proxy: deep $ref and oneOf/anyOf', bin: '@notionhq/notion-mcp-server/bin/cli.mjs', args: [], env: { NOTION_TOKEN: 'ntn_test' },
      shows: { keywords: ['$ref', 'oneOf', 'anyOf'] },
      notCalled: { '*': NOTION_NETWORK },
    },
    {
      id: 'gitlab', why: '118 tools, SDK v1 with zod 4', bin: '@zereight/mcp-gitlab/build/index.js', args: [], shows: { minTools: 50 },
      // Port 9 (discard) on loopback refuses at once: a valid call fails in its handler, offline, with no side effect.
      env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-test', GITLAB_API_URL: 'http://127.0.0.1:9/api/v4' }, notCalled: {},
    },
  ];
}
