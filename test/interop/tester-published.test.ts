// `mcpgen test` against the published MCP servers the repository pins (test/import-servers/), each held to
// the spec `mcpgen import mcp` writes from it. Their lists must match that spec; what the property checks
// find is theirs to fix and is reported in docs/testing.md — this test pins that the run completes, finds
// something only where a check can, and calls nothing that leaves the machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMcp } from '../../src/import/mcp/index.js';
import { cli, tempDir } from '../helpers.js';
import { assertInstalled, publishedServers, SERVERS } from '../support/import-servers.js';

interface Case { item: string; check: string; status: string; message?: string }

describe('mcpgen test against published servers', () => {
  assertInstalled();
  for (const server of publishedServers()) {
    it(server.id, async () => {
      const env = { ...process.env, ...server.env } as Record<string, string>;
      const args = [join(SERVERS, server.bin), ...server.args];
      const imported = await importMcp({ target: { kind: 'stdio', command: process.execPath, args, env, ...(server.cwd === undefined ? {} : { cwd: server.cwd }) } });
      const dir = tempDir();
      const spec = join(dir, `${server.id}.yaml`);
      writeFileSync(spec, imported.yaml);
      // The test command passes its own environment to the server.
      const saved = { ...process.env };
      Object.assign(process.env, server.env);
      const exclude = Object.keys(server.notCalled).join(',');
      let r;
      try {
        r = await cli(['test', spec, '--reporter', 'json', '--runs', '5', '--timeout', '10000', '--save', join(dir, 'failures.json'), ...(exclude === '' ? [] : ['--exclude', exclude]), '--', process.execPath, ...args], server.cwd ?? dir);
      } finally {
        process.env = saved;
      }
      expect(r.stderr).toBe('');
      const cases = (JSON.parse(r.stdout) as { cases: Case[] }).cases;
      expect(cases[0]).toMatchObject({ item: 'server', check: 'lists', status: 'passed' });
      expect(r.code).toBe(cases.some((c) => c.status === 'failed') ? 1 : 0);
      // Over stdio no wire check runs; every failure is a property check's, with a message.
      for (const c of cases.filter((x) => x.status === 'failed')) {
        expect(['valid', 'invalid', 'prompt', 'prompt-missing', 'resource']).toContain(c.check);
        expect(c.message).toBeTruthy();
      }
      console.log(`${server.id}: ${cases.filter((c) => c.status === 'failed').map((c) => `\n  ${c.item} ${c.check}: ${c.message?.split('\n')[0]}`).join('')}`);
    });
  }
});
