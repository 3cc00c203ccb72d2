// A bounded wait: the Redis bus holds a listen acknowledgement until Redis confirmed something (a SUBSCRIBE,
// the other instances' acks), but never longer than a few seconds — a slow or lost reply must not hang the
// client. The bound counts from the last sign of progress: a Redis that stopped answering ends the wait
// `idleMs` after its last reply, while one that keeps answering over a slow link (or on a starved machine,
// where every step takes longer) is waited for up to `maxMs` in all. The timers are unref'd so a pending
// wait never keeps the process alive.

/**
 * Resolves when `start`'s `done` is called, or once `idleMs` passed since the wait began or since its last
 * `progress()`, and after `maxMs` in all at most (default `idleMs`). `start` registers `done` and `progress`
 * wherever the awaited events will call them and returns how to unregister them; that runs once, either way.
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
    let idle = setTimeout(done, idleMs);
    idle.unref();
    const cap = setTimeout(done, maxMs);
    cap.unref();
    const progress = () => {
      if (finished) return;
      clearTimeout(idle);
      idle = setTimeout(done, idleMs);
      idle.unref();
    };
    unregister = start(done, progress);
    if (finished) unregister();
  });
}
