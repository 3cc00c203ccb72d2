// The Redis bus's bounded waits (a listen acknowledgement held until Redis confirmed): resolved by the
// awaited event or by the timer, whichever is first, with the registration undone exactly once.
import { describe, expect, it, vi } from 'vitest';
import { waitAtMost } from '../../packages/runtime/src/server/scale/wait-at-most.js';

describe('waitAtMost', () => {
  it('resolves when the event calls done, before the timer, and unregisters once', async () => {
    vi.useFakeTimers();
    try {
      const unregister = vi.fn();
      let fire: () => void = () => {};
      let resolved = false;
      const wait = waitAtMost(1_000, (done) => {
        fire = done;
        return unregister;
      }).then(() => void (resolved = true));
      await Promise.resolve();
      expect(resolved).toBe(false);
      fire();
      fire();
      await wait;
      expect(unregister).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0); // the timer was cleared
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves after the bound when the event never comes, and unregisters', async () => {
    vi.useFakeTimers();
    try {
      const unregister = vi.fn();
      let resolved = false;
      const wait = waitAtMost(500, () => unregister).then(() => void (resolved = true));
      await vi.advanceTimersByTimeAsync(499);
      expect(resolved).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await wait;
      expect(resolved).toBe(true);
      expect(unregister).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('unregisters even when done is called while registering', async () => {
    const unregister = vi.fn();
    await waitAtMost(10_000, (done) => {
      done();
      return unregister;
    });
    expect(unregister).toHaveBeenCalledTimes(1);
  });

  it('does not keep the process alive', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const wait = waitAtMost(10_000, (done) => {
        queueMicrotask(done);
        return () => {};
      });
      const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      await wait;
    } finally {
      spy.mockRestore();
    }
  });
});
