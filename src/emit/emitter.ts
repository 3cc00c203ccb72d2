// Where a run's code is emitted: in a worker thread that starts loading ts-morph and TypeScript (about
// 0.6 s of compiling) as soon as `generate` knows it needs a full run, so that loading overlaps reading
// and validating the specs on the main thread; or in-process (the library API, tests). Either way the
// files come back whole and the write stage runs on the main thread, so a failure leaves nothing written.
// This module imports no emitter itself: `check` and a current run never load ts-morph.
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EnvironmentError } from '../errors.js';
import type { EmittedPackage, PackageJob } from './index.js';

export interface Emitter {
  emit(jobs: readonly PackageJob[]): Promise<EmittedPackage[]>;
  /** Ends the thread (after the job in flight, if any). */
  close(): void;
}

/** What the worker answers a job with. */
export type EmitReply = { readonly packages: EmittedPackage[] } | { readonly failure: { readonly message: string; readonly stack?: string | undefined } };

/** Emission in this thread, loading the emitters on first use. */
export function inProcessEmitter(): Emitter {
  return {
    emit: async (jobs) => (await import('./index.js')).emitPackages(jobs),
    close: () => {},
  };
}

/** A job as the worker gets it; `null` ends a reused thread. */
export type EmitRequest = { readonly jobs: readonly PackageJob[]; readonly last: boolean } | null;

export interface EmitWorkerOptions {
  /** The worker's module (a test may give another). */
  readonly entry?: URL;
  /** Keep the thread, with ts-morph loaded, for more runs (--watch) until close(); else it ends after its job. */
  readonly reuse?: boolean;
}

/** Root spec bytes from which a worker pays (quiet 2-core machine: a loss of 0.1 s at 12 KB, a gain from 125 KB). */
export const WORKER_MIN_SPEC_BYTES = 64 * 1024;

/**
 * Whether a run should emit in a worker. It pays when the main thread's checks of a large spec take
 * about as long as the worker's load of ts-morph, and when a core is free to run it (more than one
 * core, a load average below their number). For a small spec, or on a single or saturated core, the
 * thread only adds its start-up and a second heap: measured on 2 cores, 0.1 s more wall time for 10
 * tools on a quiet machine, 0.3 s more CPU at load 6. MCPGEN_EMIT_WORKER=1 or 0 decides instead.
 * Either way the output is the same.
 */
export function emitInWorker(specBytes: number): boolean {
  const forced = process.env.MCPGEN_EMIT_WORKER;
  if (forced === '1' || forced === '0') return forced === '1';
  const cores = availableParallelism();
  return specBytes >= WORKER_MIN_SPEC_BYTES && cores > 1 && loadavg()[0]! < cores;
}

/**
 * Starts the thread now. Run from the TypeScript sources (the tests' in-process CLI) there is no
 * compiled worker module next to this one: emission then stays in this thread.
 */
export function startEmitWorker(options: EmitWorkerOptions = {}): Emitter {
  const { entry = new URL('./worker.js', import.meta.url), reuse = false } = options;
  if (!existsSync(fileURLToPath(entry))) return inProcessEmitter();
  const worker = new Worker(entry);
  // Idle, the thread does not keep the process alive (a run that stops at spec errors just exits).
  worker.unref();
  let pending: { resolve: (p: EmittedPackage[]) => void; reject: (e: Error) => void } | undefined;
  let broken: Error | undefined;
  let used = false;
  const settle = (outcome: EmitReply | Error) => {
    const job = pending;
    pending = undefined;
    // A thread that ends after its job keeps the process until it has (it winds down while this one writes).
    if (reuse) worker.unref();
    if (job === undefined) return;
    if (outcome instanceof Error) job.reject(outcome);
    else if ('packages' in outcome) job.resolve(outcome.packages);
    else job.reject(Object.assign(new Error(outcome.failure.message), { stack: outcome.failure.stack }));
  };
  worker.on('message', (reply: EmitReply) => settle(reply));
  // The thread could not load the emitters or died (a broken install, out of memory): not a spec
  // problem and not a bug in the emitters, so one line and exit 1.
  worker.on('error', (e: Error) => settle((broken = new EnvironmentError(`the code emitter's worker thread failed: ${e.message.split('\n')[0]}`))));
  worker.on('exit', (code) => settle((broken ??= new EnvironmentError(`the code emitter's worker thread stopped (exit code ${code})`))));
  return {
    emit(jobs) {
      if (broken !== undefined) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        used = true;
        worker.ref();
        worker.postMessage({ jobs, last: !reuse } satisfies EmitRequest);
      });
    },
    close() {
      if (broken !== undefined) return;
      if (!used) {
        // Never given work (the specs had errors): stopped, even in the middle of loading.
        void worker.terminate();
      } else if (reuse) {
        // It ends on its own after the job in flight, the process waiting for it (its exit handlers run).
        worker.ref();
        worker.postMessage(null satisfies EmitRequest);
      }
    },
  };
}
