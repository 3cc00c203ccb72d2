// A generated server's fetch handler on Cloudflare's runtime: the compiled sql example (validation,
// output schema, MRTR elicitation with sealed requestState) bundled by esbuild with the `workerd`
// export conditions (the SDK then picks its own eval-free pieces), served by the `workerd` binary on
// 127.0.0.1, and called by the official client. workerd allows no code generation from strings, so
// this fails if the server compiles validators at run time.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../generated/sql/client.js';
import { ROOT } from '../support/root.js';
import { freePort, waitFor } from '../support/ports.js';
import { COMPILED, importCompiled } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/workerd');
let child: ChildProcess | undefined;
let url = '';
let log = '';

beforeAll(async () => {
  mkdirSync(DIR, { recursive: true });
  const entry = join(DIR, 'entry.mjs');
  writeFileSync(
    entry,
    [
      `import { handlers } from ${JSON.stringify(join(COMPILED, 'sql/handlers.js'))};`,
      `import { createSqlServer } from ${JSON.stringify(join(COMPILED, 'sql/server.js'))};`,
      'const handler = createSqlServer(handlers).http();',
      'export default { fetch: (request) => handler.fetch(request) };',
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    // workerd's nodejs_compat provides node:*; the Redis bus is an optional peer loaded only when asked for.
    external: ['node:*', '@redis/client'],
    outfile: join(DIR, 'worker.js'),
    logLevel: 'silent',
  });
  const port = await freePort();
  writeFileSync(
    join(DIR, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
);
`,
  );
  const workerd = createRequire(import.meta.url)('workerd') as { default: string };
  child = spawn(workerd.default, ['serve', join(DIR, 'config.capnp'), '--verbose'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => (await fetch(url, { method: 'GET' })).status > 0, 20_000);
}, 60_000);

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('generated fetch handler on workerd', () => {
  it('serves lists, validated calls and output schemas to the official client', async () => {
    const client = new Client({ name: 'workerd-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['execute_sql', 'list_tables']);
      const tables = await client.callTool({ name: 'list_tables', arguments: { region: 'us-east1' } });
      expect(tables.structuredContent).toEqual({ tables: ['customers', 'invoices'] });
      const invalid = await client.callTool({ name: 'list_tables', arguments: { region: 7 } });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as { text: string }[])[0]!.text).toBe('Invalid arguments for tool list_tables: arguments/region must be string');
    } finally {
      await client.close();
    }
    expect(log).not.toMatch(/Code generation from strings disallowed|EvalError|Uncaught/);
  });

  it('runs MRTR elicitation (sealed requestState, answer validated) through the generated client', async () => {
    const { SqlClient: Sql } = await importCompiled<{ SqlClient: { connect(t: unknown, o?: unknown): Promise<SqlClient> } }>('sql', 'client.js');
    const asked: unknown[] = [];
    const sql = await Sql.connect({ url }, { onElicit: (req: unknown) => (asked.push(req), { action: 'accept', content: { confirm: true } }) });
    try {
      const write = await sql.executeSql({ region: 'us-west1', query: 'DELETE FROM orders' });
      expect(write.structuredContent?.rowCount).toBe(1);
      expect(asked).toHaveLength(1);
    } finally {
      await sql.close();
    }
    expect(log).not.toMatch(/Code generation from strings disallowed|EvalError|Uncaught/);
  });
});
