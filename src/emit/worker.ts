// The emit worker thread (started by src/emit/emitter.ts): importing this loads ts-morph and TypeScript,
// which happens while the main thread reads and validates the specs. Each message is a run's packages,
// answered with their files; `null` ends the thread.
import { parentPort } from 'node:worker_threads';
import { emitPackages, type PackageJob } from './index.js';
import type { EmitReply } from './emitter.js';

const port = parentPort!;
port.on('message', (jobs: readonly PackageJob[] | null) => {
  if (jobs === null) return port.close();
  let reply: EmitReply;
  try {
    reply = { packages: emitPackages(jobs) };
  } catch (e) {
    // A bug in an emitter: the main thread reports it as one, with this stack.
    reply = { failure: e instanceof Error ? { message: e.message, stack: e.stack } : { message: String(e) } };
  }
  port.postMessage(reply);
});
