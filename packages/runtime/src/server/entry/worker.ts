// `main.js --worker` (docs/tasks.md, Workers): an instance that runs queued tasks and serves nothing but the
// liveness and readiness probes on --port. SIGTERM: readiness 503, no more tasks taken, running handlers
// finish within the grace period, the rest are handed over (the dropped lease), then exit.
import { logText } from '../core/log.js';
import { createServer } from 'node:http';
import { createHealthProbes } from '../ops/health.js';
import type { HttpEntryArgs } from './entry-args.js';
import type { ServerFactory } from '../dispatch/create-server.js';

const GRACE_MS = 10_000;

export async function runWorker(factory: ServerFactory, args: HttpEntryArgs): Promise<void> {
  const { setTaskRole, drainTasks } = factory;
  if (setTaskRole === undefined || drainTasks === undefined) fail('--worker: this server has no task tools, so a worker has nothing to run');
  try {
    setTaskRole('worker');
  } catch (e) {
    fail(`--worker: ${e instanceof Error ? e.message : String(e)}`);
  }
  const probes = createHealthProbes(args, () => []);
  const http = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://worker').pathname;
    void (probes.answer(req.method, pathname) ?? Promise.resolve(new Response('Not found: a task worker serves only its probes\n', { status: 404 }))).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(args.port, args.host, () => resolve());
  }).catch((e: unknown) => fail(`cannot listen on ${args.host}:${args.port}: ${e instanceof Error ? e.message : String(e)}`));
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : args.port;
  const host = args.host.includes(':') ? `[${args.host}]` : args.host;
  process.stderr.write(`listening on http://${host}:${port} (task worker: runs queued tasks, serves only the probes)\n`);
  const stop = () => {
    probes.startDraining();
    void drainTasks(GRACE_MS).finally(() => http.close(() => process.exit(0)));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function fail(message: string): never {
  logText('error', message);
  process.exit(1);
}
