// Keeps this instance's owner lease alive and sweeps for tasks whose owner is gone (a crash, an OOM kill,
// a deploy). Every leaseMs/3: renew the lease, then claim lost tasks and hand each to onLost.
// Detection bound: an owner that dies is found at most leaseMs (its lease lapses) + leaseMs/3 (the next
// sweep) later — 4/3 × leaseMs, 20 s with the default 15 s lease.
// A Redis outage must not make live owners look dead: their leases lapse while nobody can renew them. So an
// instance judges leases only after its own calls have succeeded for a whole lease period — by then every
// live owner has renewed (and written the results it held through the outage, see runner.ts settle()).
import type { TaskLiveness } from './store.js';

export const DEFAULT_TASK_LEASE_MS = 15_000;

export class TaskLeases {
  readonly #timer: NodeJS.Timeout;
  /** Since when every Redis call succeeded; undefined right after a failure. */
  #healthySince: number | undefined;
  #sweeping = false;
  /** False once the instance drains: it runs nothing more, so it must not claim what others lost. */
  #claiming = true;
  /** The first renewal: a task is recorded as ours only once our lease exists. */
  readonly #first: Promise<void>;

  constructor(
    private readonly liveness: TaskLiveness,
    readonly leaseMs: number,
    private readonly onLost: (taskId: string) => Promise<void>,
    private readonly onError: (error: unknown, where: string) => void,
  ) {
    this.#first = this.#renew();
    this.#timer = setInterval(() => void this.#tick(), Math.max(10, Math.floor(leaseMs / 3)));
    this.#timer.unref();
  }

  /** Resolves once this instance's lease exists (a worker takes queued tasks only then). */
  ready(): Promise<void> {
    return this.#first;
  }

  /** Records the task as run by this instance (after the first renewal). Failure is reported, not thrown. */
  async own(taskId: string): Promise<void> {
    await this.#first;
    await this.liveness.own(taskId).catch((e: unknown) => this.onError(e, `task ${taskId}: owner not recorded`));
  }

  release(taskId: string): void {
    this.liveness.release(taskId).catch(() => {}); // a leftover entry is cleaned up by whoever claims it
  }

  /**
   * Draining: the lease is still renewed (the tasks running here stay owned) but lost tasks are left to
   * the instances that will run them — a claim by an instance that cannot run it would end a task that
   * may run again as failed (a rolling update terminates instances one after another, overlapping).
   */
  stopClaiming(): void {
    this.#claiming = false;
  }

  /** Stops renewing; with retire, drops the lease so survivors take over at their next sweep. */
  async stop(retire: boolean): Promise<void> {
    clearInterval(this.#timer);
    if (retire) await this.liveness.retire().catch(() => {});
  }

  async #renew(): Promise<void> {
    try {
      await this.liveness.renew(this.leaseMs);
      this.#healthySince ??= Date.now();
    } catch {
      this.#healthySince = undefined;
    }
  }

  async #tick(): Promise<void> {
    await this.#renew();
    if (!this.#claiming || this.#sweeping || this.#healthySince === undefined || Date.now() - this.#healthySince < this.leaseMs) return;
    this.#sweeping = true;
    try {
      const lost = await this.liveness.claimLost();
      await Promise.all(lost.map((taskId) => this.onLost(taskId).catch((e: unknown) => this.onError(e, `task ${taskId}: lost owner`))));
    } catch {
      this.#healthySince = undefined;
    } finally {
      this.#sweeping = false;
    }
  }
}
