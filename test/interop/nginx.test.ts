// Stateless scale-out: two instances of a generated server behind nginx round-robin on loopback, no
// session affinity; and nginx routing one tool to a third instance by the mirrored Mcp-Name header.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import { startNginx } from '../support/nginx.js';
import { importCompiled, ROOT, startScript } from '../support/servers.js';

const children: ChildProcess[] = [];
const stops: (() => void)[] = [];

async function instance(id: string): Promise<number> {
  const server = await startScript(join(ROOT, 'test/support/instance-server.mjs'), [], { env: { INSTANCE_ID: id } });
  children.push(server.child);
  return Number(new URL(server.url).port);
}

let url: string;

beforeAll(async () => {
  const [a, b, c] = await Promise.all([instance('A'), instance('B'), instance('C')]);
  const nginx = await startNginx({
    upstreams: { pool: [a, b], writer: [c] },
    // The header the client mirrors from params.name picks the backend: no body parsing at the edge.
    extra: '  map $http_mcp_name $backend { default pool; execute_sql writer; }',
    backend: '$backend',
  });
  stops.push(nginx.stop);
  url = nginx.url;
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const stop of stops) stop();
});

describe('generated server behind nginx', () => {
  it('spreads a client’s consecutive calls over both instances, every call succeeding', async () => {
    const { SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js');
    const client = await SqlClient.connect({ url });
    try {
      const served: string[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await client.listTables({ region: `r${i}` });
        expect(r.isError).toBe(false);
        served.push(r.structuredContent!.tables[0]!);
      }
      expect(new Set(served)).toEqual(new Set(['A', 'B']));
    } finally {
      await client.close();
    }
  });

  it('routes execute_sql to its own instance by the Mcp-Name header', async () => {
    const { SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js');
    const client = await SqlClient.connect({ url });
    try {
      for (let i = 0; i < 4; i++) {
        const r = await client.executeSql({ region: 'eu-west1', query: 'SELECT 1' });
        expect(r.structuredContent!.rows[0]).toEqual(['C', 'eu-west1']);
      }
      expect(new Set([(await client.listTables({ region: 'x' })).structuredContent!.tables[0], (await client.listTables({ region: 'y' })).structuredContent!.tables[0]])).not.toContain('C');
    } finally {
      await client.close();
    }
  });
});
