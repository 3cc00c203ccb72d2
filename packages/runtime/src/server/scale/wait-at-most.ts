// A bounded wait: the Redis bus holds a listen acknowledgement until Redis confirmed something (a SUBSCRIBE,
// the other instances' acks), but never longer than a few seconds — a slow or lost reply must not hang the
// client. It counts from the last progress (a slow link answers each step in time); the timers are unref'd.

/**
 * Resolves when `start`'s `done` is called, `idleMs` after the start or the last `progress()`, or after `maxMs`.
 * `start` registers both and returns how to unregister them; that runs once, either way.
 */
export function waitAtMost(idleMs: number, start: (done: () => void, progress: () => void) => () => void, maxMs = idleMs): Promise<void> {
  return new Promise((resolve) => {
    let finished = false;
    let unregister: (() => void) | undefined;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(idle);
      clearTimeout(cap);
      unregister?.();
      resolve();
    };
    const idle = setTimeout(done, idleMs);
    idle.unref();
    const cap = setTimeout(done, maxMs);
    cap.unref();
    const progress = () => {
      if (!finished) idle.refresh();
    };
    unregister = start(done, progress);
    if (finished) unregister();
  });
}
