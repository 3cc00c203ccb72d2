// redis-server (Debian package; .ci/run installs it) on a free loopback port; no persistence unless asked
// (`persist`: an append-only file fsynced on every write, so a SIGKILL and restart keeps every acknowledged key).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { freePort, waitFor } from './ports.js';

const REDIS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Kill it (SIGKILL: a crash, not a shutdown). */
  kill(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** The process id now (shared-redis.ts stops a detached server by it). */
  readonly pid: number;
  /** Send a signal: SIGSTOP freezes it (a stalled host: the socket stays open, nothing answers), SIGCONT thaws it. */
  signal(signal: NodeJS.Signals): void;
}

/** `persist`: append-only file with fsync always (data survives a kill); `extraArgs`: more redis-server options, e.g. `['--requirepass', 'secret']`. */
/** `detached`: the process outlives the test file (shared-redis.ts). */
export async function startRedis(options: { readonly persist?: boolean; readonly extraArgs?: readonly string[]; readonly detached?: boolean } | readonly string[] = {}): Promise<RedisServer> {
  if (Array.isArray(options)) return startRedis({ extraArgs: options });
  const { persist = false, extraArgs = [], detached = false } = options as { readonly persist?: boolean; readonly extraArgs?: readonly string[]; readonly detached?: boolean };
  if (REDIS === undefined) throw new Error('redis-server is not installed (.ci/run installs the Debian package redis-server)');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const persistence = persist ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', mkdtempSync(join(tmpdir(), 'mcpgen-redis-'))] : ['--appendonly', 'no'];
  const start = async () => {
    child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--protected-mode', 'yes', ...extraArgs], { stdio: 'ignore', detached });
    if (detached) child.unref();
    await waitFor(() => new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    }));
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child!.pid!;
    },
    start,
    signal: (signal) => void child?.kill(signal),
    kill: () => new Promise((resolve) => {
      // Killed by a signal, a process has a signalCode and no exitCode: killing it again would wait forever.
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
      child.kill('SIGCONT'); // a frozen process dies only once it runs again
    }),
  };
}

/** How many times the redis-server on `port` ran each command (INFO commandstats: `eval`, `get`…). */
export function redisCommandCalls(port: number): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const s = connect(port, '127.0.0.1', () => s.write('INFO commandstats\r\n'));
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      text += chunk;
      // A bulk reply: `$<length>\r\n<text>\r\n`; complete once the text is all there.
      const m = /^\$(\d+)\r\n/.exec(text);
      if (m === null || Buffer.byteLength(text) < m[0].length + Number(m[1])) return;
      s.end();
      resolve(Object.fromEntries([...text.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g)].map((c) => [c[1]!, Number(c[2])])));
    });
    s.once('error', reject);
  });
}
