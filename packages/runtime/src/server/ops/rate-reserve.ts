// Counting a shared (Redis) limit without a Redis round trip per request: each instance takes points from
// the store in chunks — a local budget of 1 % of the limit, at most 64 points, per key and window — and
// spends them locally. The store still counts every point handed out, so all instances together never
// accept more than the limit; what an instance reserved but did not spend is lost to the others until the
// window ends (at most instances × (chunk − 1) per window: the slack), and is given back at close().
// A limit under MIN_RESERVING_POINTS keeps one store call per request and stays exact.
// The store's windows are fixed (rate-limiter-flexible's Redis limiter: a key with a TTL of the duration),
// so a local budget ends when the store says its window does (msBeforeNext), and a full window stays full.

/** What the store answers for `consume(key, n)`: the points consumed in the window now (n included), and the window's rest. */
export interface StoreResult {
  readonly consumedPoints: number;
  readonly msBeforeNext: number;
}

/** A counting store (rate-limiter-flexible's limiters): consume rejects with a StoreResult past the limit, with anything else when it fails. */
export interface PointStore {
  consume(key: string, points: number): Promise<StoreResult>;
  reward(key: string, points: number): Promise<unknown>;
}

/** Under this many points per window a limit is counted exactly (one store call per request). */
export const MIN_RESERVING_POINTS = 200;
const MAX_CHUNK = 64;
/** Budgets of ended windows are dropped once this many keys are held. */
const SWEEP_AT = 4096;
/** A budget is given back only if its window has this long left (a late reward would land in the next window). */
const REFUND_MARGIN_MS = 1000;

/** The points one instance takes from the store at once for a limit of `points`: 1 = exact counting. */
export function chunkFor(points: number): number {
  return points < MIN_RESERVING_POINTS ? 1 : Math.min(MAX_CHUNK, Math.floor(points / 100));
}

/** undefined: go on; a number: refused, ms before the window ends. */
export type Taken = number | undefined;

interface Budget {
  /** Points reserved and not yet spent. */
  left: number;
  /** When the store's window ends (this process's clock). */
  endsAt: number;
  /** The store refused or gave its last points: refuse locally until endsAt. */
  full: boolean;
  /** The reservation in flight: requests arriving meanwhile wait for it instead of reserving too. */
  pending: Promise<void> | undefined;
}

export class ReservingCounter {
  private readonly budgets = new Map<string, Budget>();
  private readonly chunk: number;
  private readonly now: () => number;

  /** `chunk`: 1 counts exactly (a store in this process); default chunkFor(points). `now`: a clock in ms (tests). */
  constructor(
    private readonly store: PointStore,
    private readonly points: number,
    options: { readonly chunk?: number; readonly now?: () => number } = {},
  ) {
    this.chunk = options.chunk ?? chunkFor(points);
    this.now = options.now ?? (() => performance.now());
  }

  /** Spend one point of `key`: synchronously from the local budget when there is one, else after a reservation. */
  take(key: string): Taken | Promise<Taken> {
    if (this.chunk === 1) return this.exact(key);
    const now = this.now();
    const budget = this.budgets.get(key);
    if (budget !== undefined && budget.pending === undefined && now >= budget.endsAt) this.budgets.delete(key);
    else if (budget !== undefined) {
      if (budget.left > 0) {
        budget.left--;
        return undefined;
      }
      if (budget.pending !== undefined) return budget.pending.then(() => this.take(key));
      if (budget.full) return budget.endsAt - now;
    }
    return this.reserve(key);
  }

  /** Give the unspent points back to the store (shutdown), for windows that still have a while to run. */
  async refund(): Promise<void> {
    const now = this.now();
    const back = [...this.budgets].filter(([, b]) => b.left > 0 && b.endsAt - now > REFUND_MARGIN_MS);
    this.budgets.clear();
    await Promise.all(back.map(([key, b]) => this.store.reward(key, b.left).catch(() => {})));
  }

  /** How many keys hold a budget (tests). */
  get size(): number {
    return this.budgets.size;
  }

  private async exact(key: string): Promise<Taken> {
    try {
      await this.store.consume(key, 1);
      return undefined;
    } catch (e) {
      return refusalMs(e) ?? undefined; // a store failure lets the request through: limits never break a server
    }
  }

  private reserve(key: string): Promise<Taken> {
    if (this.budgets.size >= SWEEP_AT) this.sweep();
    const budget: Budget = { left: 0, endsAt: 0, full: false, pending: undefined };
    this.budgets.set(key, budget);
    let taken: Taken;
    const pending = this.store.consume(key, this.chunk).then(
      (res) => {
        taken = this.grant(budget, res);
      },
      (e: unknown) => {
        const res = refusedResult(e);
        if (res !== undefined) taken = this.grant(budget, res);
        else this.budgets.delete(key); // the store failed: no budget, this request goes on
      },
    );
    // Cleared before the waiters (chained on `pending`) look again.
    budget.pending = pending.then(() => {
      budget.pending = undefined;
    });
    return budget.pending.then(() => taken);
  }

  /** The points the store gave of a chunk (all, the rest before the limit, or none); this request spends one. */
  private grant(budget: Budget, res: StoreResult): Taken {
    const before = res.consumedPoints - this.chunk;
    const got = Math.max(0, Math.min(this.chunk, this.points - before));
    budget.endsAt = this.now() + res.msBeforeNext;
    budget.full = got < this.chunk;
    if (got === 0) return Math.max(0, res.msBeforeNext);
    budget.left = got - 1;
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, b] of this.budgets) if (b.pending === undefined && now >= b.endsAt) this.budgets.delete(key);
  }
}

/** A refusal carries msBeforeNext and consumedPoints; anything else is a failure of the store. */
function refusedResult(e: unknown): StoreResult | undefined {
  const r = e as { msBeforeNext?: unknown; consumedPoints?: unknown } | null;
  return typeof r?.msBeforeNext === 'number' && typeof r.consumedPoints === 'number' ? { msBeforeNext: r.msBeforeNext, consumedPoints: r.consumedPoints } : undefined;
}

function refusalMs(e: unknown): number | undefined {
  const ms = (e as { msBeforeNext?: unknown } | null)?.msBeforeNext;
  return typeof ms === 'number' ? ms : undefined;
}
