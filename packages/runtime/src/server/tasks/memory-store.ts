// The default task store: one process, no persistence. Records expire ttlMs after createdAt (checked on
// every read, and swept at most once a second so abandoned tasks do not pile up).
import { TERMINAL_STATUSES, type TaskEvent, type TaskPatch, type TaskRecord, type TaskStore } from './store.js';

const SWEEP_EVERY_MS = 1_000;

export interface MemoryTaskStoreOptions {
  /** Clock for expiry (tests). Default Date.now. */
  readonly now?: () => number;
  /** Most records kept at once; creating one more drops the oldest. Default 10 000. */
  readonly maxRecords?: number;
}

export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #listeners = new Set<(event: TaskEvent) => void>();
  readonly #now: () => number;
  readonly #max: number;
  #lastSweep = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#max = Math.max(1, options.maxRecords ?? 10_000);
  }

  async create(record: TaskRecord): Promise<void> {
    this.#sweep();
    // Map iteration is insertion order: the first key is the oldest record.
    while (this.#records.size >= this.#max) this.#records.delete(this.#records.keys().next().value as string);
    this.#records.set(record.taskId, record);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.#live(taskId);
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const current = this.#live(taskId);
    if (current === undefined || TERMINAL_STATUSES.has(current.status)) return undefined;
    const next: TaskRecord = { ...current, ...patch, lastUpdatedAt: new Date(this.#now()).toISOString() };
    this.#records.set(taskId, next);
    if (patch.status !== undefined && patch.status !== current.status) this.#deliver({ type: 'status', record: next });
    return next;
  }

  async publish(event: TaskEvent): Promise<void> {
    this.#deliver(event);
  }

  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#records.clear();
  }

  #live(taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    if (record === undefined) return undefined;
    if (expired(record, this.#now())) {
      this.#records.delete(taskId);
      return undefined;
    }
    return record;
  }

  #deliver(event: TaskEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // one failing listener must not keep the event from the others
      }
    }
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    for (const [id, record] of this.#records) if (expired(record, now)) this.#records.delete(id);
  }
}

function expired(record: TaskRecord, now: number): boolean {
  return Date.parse(record.createdAt) + record.ttlMs <= now;
}
