// A bounded wait: the Redis bus holds a listen acknowledgement until Redis confirmed something (a SUBSCRIBE,
// the other instances' acks), but never longer than a few seconds — a slow or lost reply must not hang the
// client. The timer is unref'd so a pending wait never keeps the process alive.

/**
 * Resolves when `start`'s `done` is called or after `ms`, whichever is first. `start` registers `done`
 * wherever the awaited event will call it and returns how to unregister it; that runs once, either way.
 */
export function waitAtMost(ms: number, start: (done: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    let finished = false;
    let unregister: (() => void) | undefined;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      unregister?.();
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    unregister = start(done);
    if (finished) unregister();
  });
}
