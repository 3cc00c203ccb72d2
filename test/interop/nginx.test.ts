// Stateless scale-out: two instances of a generated server behind nginx round-robin on loopback, no
// session affinity; and nginx routing one tool to a third instance by the mirrored Mcp-Name header.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import { tempDir } from '../helpers.js';
import { importCompiled, ROOT, startScript } from '../support/servers.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const children: ChildProcess[] = [];

async function instance(id: string): Promise<number> {
  const server = await startScript(join(ROOT, 'test/support/instance-server.mjs'), [], { env: { INSTANCE_ID: id } });
  children.push(server.child);
  return Number(new URL(server.url).port);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let url: string;

beforeAll(async () => {
  if (NGINX === undefined) throw new Error('nginx is not installed (.ci/run installs the Debian package)');
  const [a, b, c, port] = await Promise.all([instance('A'), instance('B'), instance('C'), freePort()]);
  const dir = tempDir('mcpgen-nginx-');
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(dir, d));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, `
user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 128; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream pool { server 127.0.0.1:${a}; server 127.0.0.1:${b}; }
  upstream writer { server 127.0.0.1:${c}; }
  # The header the client mirrors from params.name picks the backend: no body parsing at the edge.
  map $http_mcp_name $backend { default pool; execute_sql writer; }
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://$backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host:$server_port;
      proxy_buffering off;
    }
  }
}
`);
  const test = spawnSync(NGINX, ['-t', '-c', conf, '-p', dir], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(test.stderr);
  const nginx = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  children.push(nginx);
  url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url, { method: 'GET' });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
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
