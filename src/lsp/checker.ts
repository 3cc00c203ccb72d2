import { Worker } from 'node:worker_threads';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { CheckerData, CheckReply, CheckRequest, MemoryRequest } from './check-worker.js';

/** The worker's bundle (scripts/bundle-cli.mjs), found from the CLI bundle, from tsc's output and from the sources alike. */
const WORKER = new URL('../../dist/cli/lsp-worker.cjs', import.meta.url);

export interface Checked {
  /** Each file's diagnostics, by absolute path. */
  readonly files: ReadonlyMap<string, LspDiagnostic[]>;
  /** What the texts were when this check began (what `versionOf` said then, by path). */
  readonly versions: ReadonlyMap<string, number>;
}

/**
 * The main thread's side of the checks (check-worker.ts): one check at a time in the worker; the edits
 * that arrive meanwhile are sent together when it ends. The newest texts win: a check whose texts have
 * changed since it began is dropped unpublished, and the next one starts at once.
 */
export class Checker {
  private worker: Worker;
  /** Every text the editor holds (null: closed, back to the disk), for a new worker. */
  private readonly texts = new Map<string, string | null>();
  /** Texts changed since the running check began. */
  private pending = new Map<string, string | null>();
  private findRoots = false;
  /** Bumped on every change; a check is current when it began at the latest generation. */
  private generation = 0;
  private running: { id: number; versions: Map<string, number> } | undefined;
  /** `memory()` calls waiting for the worker's answer, in order. */
  private readonly heapWaiters: ((bytes: number) => void)[] = [];

  constructor(
    private readonly cwd: string,
    private readonly versionOf: (path: string) => number | undefined,
    private readonly publish: (checked: Checked) => void,
    private readonly report: (message: string) => void,
    /** The worker started checking (true), or has nothing left to check (false). */
    private readonly busy: (checking: boolean) => void,
  ) {
    this.worker = this.start();
  }

  /** An editor's text for a file (undefined: the file on disk again). */
  setText(path: string, text: string | undefined): void {
    if (text === undefined) this.texts.delete(path);
    else this.texts.set(path, text);
    this.pending.set(path, text ?? null);
    this.changed();
  }

  /** Files were created, deleted or renamed. */
  rootsChanged(): void {
    this.findRoots = true;
    this.changed();
  }

  /** Checks now unless a check is running (then when it ends). */
  changed(): void {
    this.generation++;
    if (this.running === undefined) this.send();
  }

  /** The checker thread's heap in use (after a full collection under --expose-gc), once its running check ends. */
  memory(): Promise<number> {
    return new Promise((answer) => {
      this.heapWaiters.push(answer);
      this.worker.postMessage({ memory: true } satisfies MemoryRequest);
    });
  }

  private start(): Worker {
    const data: CheckerData = { role: 'mcpgen-lsp-check', cwd: this.cwd };
    const worker = new Worker(WORKER, { workerData: data });
    worker.on('message', (reply: CheckReply) => this.received(reply));
    worker.on('error', (e) => {
      // A crash of the checker must not take the editor's server down: start another with every text.
      this.report(`mcpgen: the checker stopped — this is a bug, please report it:\n${e.stack ?? e.message}`);
      this.pending = new Map(this.texts);
      this.running = undefined;
      for (const answer of this.heapWaiters.splice(0)) answer(0);
      this.busy(false);
      this.worker = this.start();
      this.changed();
    });
    // The server exits when the editor says so, whatever the worker is doing.
    worker.unref();
    return worker;
  }

  private send(): void {
    const versions = new Map<string, number>();
    for (const path of this.texts.keys()) {
      const v = this.versionOf(path);
      if (v !== undefined) versions.set(path, v);
    }
    this.running = { id: this.generation, versions };
    const request: CheckRequest = { id: this.generation, texts: [...this.pending], findRoots: this.findRoots };
    this.pending = new Map();
    this.findRoots = false;
    this.worker.postMessage(request);
    this.busy(true);
  }

  private received(reply: CheckReply): void {
    if ('heapUsed' in reply) {
      this.heapWaiters.shift()?.(reply.heapUsed);
      return;
    }
    const ran = this.running;
    this.running = undefined;
    if (ran === undefined || ran.id !== reply.id) return;
    if (reply.id !== this.generation) {
      this.send(); // stale: the newest texts are checked instead
      return;
    }
    this.busy(false);
    if ('failed' in reply) this.report(`mcpgen: internal error while checking — this is a bug, please report it:\n${reply.failed}`);
    else this.publish({ files: new Map(reply.files), versions: ran.versions });
  }
}
