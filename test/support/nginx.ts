// nginx (Debian package nginx-light; .ci/run installs it) on a free loopback port, in a temp prefix.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './root.js';
import { freePort, waitFor } from './ports.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

export interface NginxOptions {
  /** Upstream name → backend ports; a port listed in `down` is marked down (rolling restarts). */
  readonly upstreams: Readonly<Record<string, readonly number[]>>;
  readonly down?: readonly number[];
  /** An upstream name or an nginx variable. */
  readonly backend: string;
  /** Goes into the http block (e.g. a `map`). */
  readonly extra?: string;
}

export interface Nginx {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** Rewrite the configuration and reload it gracefully (open streams stay on the old workers). */
  reload(options: NginxOptions): Promise<void>;
  stop(): void;
}

/**
 * Start nginx with `upstreams` (name → backend ports) and `/mcp` proxied to `backend` (an upstream
 * name or an nginx variable); `extra` goes into the http block (e.g. a `map`). Buffering is off so SSE
 * streams (progress, subscriptions/listen) pass through as they are written.
 */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  if (NGINX === undefined) throw new Error('nginx is not installed (.ci/run installs the Debian package nginx-light)');
  const port = await freePort();
  const dir = tempDir('mcpgen-nginx-');
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(dir, d));
  const conf = join(dir, 'nginx.conf');
  const write = (o: NginxOptions) => {
    const upstreams = Object.entries(o.upstreams)
      .map(([name, ports]) => `  upstream ${name} { ${ports.map((p) => `server 127.0.0.1:${p}${o.down?.includes(p) ? ' down' : ''};`).join(' ')} }`)
      .join('\n');
    writeFileSync(conf, `
user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${upstreams}
${o.extra ?? ''}
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://${o.backend};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host:$server_port;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`);
    const test = spawnSync(NGINX!, ['-t', '-q', '-c', conf, '-p', dir], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(test.stderr);
  };
  write(options);
  const nginx = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => {
    await fetch(url, { method: 'GET' });
    return true;
  });
  return {
    url,
    async reload(next) {
      write(next);
      const old = [...workers(nginx.pid!).keys()];
      nginx.kill('SIGHUP');
      // The master starts new workers, then tells the old ones to quit: each closes the listening socket and
      // calls itself "worker process is shutting down" (its open streams stay). Waited for, not timed: under
      // load the swap took longer than the half second once allowed, and a poll reached a stopped backend.
      await waitFor(() => {
        const now = workers(nginx.pid!);
        return [...now.keys()].some((pid) => !old.includes(pid)) && old.every((pid) => !now.has(pid) || now.get(pid)!.includes('shutting down'));
      }, 20_000);
    },
    // SIGTERM: the master stops its workers too (SIGKILL would leave them running as orphans).
    stop: () => void nginx.kill('SIGTERM'),
  };
}

/** The master's children (its workers), each with its process title. */
function workers(master: number): Map<number, string> {
  const children = spawnSync('pgrep', ['-P', String(master)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  const titles = new Map<number, string>();
  for (const pid of children) {
    try {
      titles.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // exited meanwhile
    }
  }
  return titles;
}
