// Issue 27: what a server says about itself reaches the wire and comes back through `import mcp`: the
// Implementation fields (title, description, websiteUrl, icons) and the server-level `_meta`, which MCP
// carries on the initialize result (2025-11-25) and the server/discover result (2026-07-28). One generated
// package, compiled under the strict flags, served by its own main.js over HTTP, read with the official client.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importMcp } from '../../src/import/mcp/index.js';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';

const META = { 'com.example/region': 'eu-west', 'com.example/owner': { team: 'search', pager: 'on-call' } };
const INFO = {
  name: 'Search Service',
  version: '2.1.0',
  title: 'Search',
  description: 'Finds things.',
  websiteUrl: 'https://example.com/search',
  icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
};

const SPEC = `mcpgen: 1
server:
  name: ${INFO.name}
  version: ${INFO.version}
  title: ${INFO.title}
  description: ${INFO.description}
  websiteUrl: ${INFO.websiteUrl}
  icons:
    - { src: "https://example.com/icon.png", mimeType: image/png, sizes: ["48x48"] }
  _meta:
    com.example/region: eu-west
    com.example/owner: { team: search, pager: on-call }
tools:
  - name: find
`;

describe('server-level _meta and Implementation fields, spec → wire → import', () => {
  let http: HttpProcess;
  beforeAll(async () => {
    const built = await generateAndCompile(join(ROOT, '.tmp/server-meta-e2e'), 'search', SPEC, { 'handlers.ts': `export const handlers = { find: () => 'found' };\n` });
    expect(built.diagnostics.filter((d) => (d as { severity: string }).severity === 'error')).toEqual([]);
    expect(built.compileErrors).toEqual([]);
    http = await startScript(join(built.js, 'main.js'));
    return () => http.stop();
  }, 180_000);

  for (const era of ['2025', '2026'] as const) {
    it(`${era}: ${era === '2025' ? 'initialize' : 'server/discover'} carries them, and import writes them back`, async () => {
      const { dump, yaml } = await importMcp({ target: { kind: 'http', url: http.url }, era });
      expect(dump.serverInfo).toEqual(INFO);
      // The 2026 result's io.modelcontextprotocol/serverInfo is serverInfo again: the dump leaves it out.
      expect(dump.meta).toEqual(META);
      expect(parse(yaml).server).toEqual({ ...INFO, _meta: META });
    }, 60_000);
  }
});
