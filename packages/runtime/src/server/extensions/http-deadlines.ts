// One timer for the deadlines of every upstream attempt in flight, instead of a setTimeout each: with one
// call at a time Node's timer list for the duration is made and dropped on every call (a list, a
// priority-queue entry, a Timeout: ~5 µs a call at concurrency 1). Unref'd: an attempt's socket is what
// keeps the process alive; the timer only bounds how long it may take.

export interface Deadline {
  readonly at: number;
  readonly fire: () => void;
}

const pending = new Set<Deadline>();
let timer: ReturnType<typeof setTimeout> | undefined;
let armedAt = Infinity;

/** `fire` runs once `at` (a Date.now() time) has passed, unless the deadline is cleared first. */
export function addDeadline(at: number, fire: () => void): Deadline {
  const d: Deadline = { at, fire };
  pending.add(d);
  if (at < armedAt) arm(at);
  return d;
}

export function clearDeadline(d: Deadline): void {
  pending.delete(d);
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedAt = at;
  timer = setTimeout(expire, Math.max(0, at - Date.now()));
  timer.unref?.();
}

function expire(): void {
  timer = undefined;
  armedAt = Infinity;
  const now = Date.now();
  // In time order: a timer that fired late finds several due, and the set holds them in the order they came.
  const due = [...pending].filter((d) => d.at <= now).sort((a, b) => a.at - b.at);
  for (const d of due) {
    if (!pending.delete(d)) continue; // cleared by one that fired before it
    d.fire();
  }
  // The earliest left (one a fire added has armed the timer already, if it is earlier still).
  let next = Infinity;
  for (const d of pending) if (d.at < next) next = d.at;
  if (next < armedAt) arm(next);
}
