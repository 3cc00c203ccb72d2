// A worker instance's intake (front/worker split, docs/tasks.md "Workers"): takes queued tasks while fewer than
// `concurrency` handlers run here. Woken by the store's `queued` event, by a handler finishing, and by a poll
// (a wake-up lost while Redis was unreachable costs at most the poll interval).
import type { TaskQueue } from './store.js';

export const DEFAULT_WORKER_CONCURRENCY = 16;
const POLL_MS = 250;

export class TaskWorkerPump {
  readonly #timer: NodeJS.Timeout;
  #pumping = false;
  #again = false;
  #stopped = false;
  /** A failing take is reported once per outage, not once per poll. */
  #failing = false;

  constructor(
    private readonly queue: TaskQueue,
    private readonly concurrency: number,
    /** Handlers running here now. */
    private readonly busy: () => number,
    /** Starts the taken task's handler (resolves once it runs, not when it ends). */
    private readonly run: (taskId: string) => Promise<void>,
    private readonly onError: (error: unknown, where: string) => void,
  ) {
    this.#timer = setInterval(() => this.wake(), POLL_MS);
    this.#timer.unref();
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    void this.#pump();
  }

  /** Takes nothing more (shutdown); handlers already running go on. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        while (!this.#stopped && this.busy() < this.concurrency) {
          const taskId = await this.queue.take();
          this.#failing = false;
          if (taskId === undefined) break;
          await this.run(taskId).catch((e: unknown) => this.onError(e, `task ${taskId}: could not start on this worker`));
        }
      } while (this.#again && !this.#stopped);
    } catch (e) {
      if (!this.#failing) this.onError(e, 'worker: taking queued tasks failed (retrying every poll)');
      this.#failing = true;
    } finally {
      this.#pumping = false;
    }
  }
}
