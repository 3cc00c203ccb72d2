// The emit worker thread (started by src/emit/emitter.ts): importing this loads ts-morph and TypeScript,
// which happens while the main thread reads and validates the specs. Each message is a run's packages,
// answered with their files; the thread ends after the last one (or on `null`).
import { parentPort } from 'node:worker_threads';
import { emitPackages } from './index.js';
import type { EmitReply, EmitRequest } from './emitter.js';

const port = parentPort!;
port.on('message', (request: EmitRequest) => {
  if (request === null) return port.close();
  let reply: EmitReply;
  try {
    reply = { packages: emitPackages(request.jobs) };
  } catch (e) {
    // A bug in an emitter: the main thread reports it as one, with this stack.
    reply = { failure: e instanceof Error ? { message: e.message, stack: e.stack } : { message: String(e) } };
  }
  port.postMessage(reply);
  if (request.last) port.close();
});
