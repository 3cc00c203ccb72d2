// The event bus's channel subscription, held only while the instance has listeners (issue 33). Every
// subscriber of a channel is sent every message published on it: an instance with no `subscriptions/listen`
// stream open would spend CPU (and redis-server its writes) on each event only to throw it away — on a
// small machine that is the publishing instance's latency too. So the instance subscribes when its first
// listener arrives and unsubscribes a grace period after the last one left (a stream that reconnects at
// once finds the subscription still there).
//
// A listener hears other instances' events once Redis has confirmed the SUBSCRIBE and the instances that
// had stopped publishing have acknowledged the announcement (redis-presence.ts); `settled()` says when, and
// the HTTP transport holds a listen stream's acknowledgement until then (transport/http.ts), so an event
// published anywhere after a client saw the acknowledgement reaches it.
import type { RedisSubscriber } from './redis-connection.js';
import { waitAtMost } from './wait-at-most.js';

export interface ChannelSubscription {
  /** A listener arrived: subscribe, or keep the subscription (a pending unsubscribe is called off). */
  hold(): void;
  /** The last listener left: unsubscribe after the grace period, unless a listener arrives meanwhile. */
  release(): void;
  /**
   * Resolves once Redis has confirmed the subscription and the announcement — at once while the subscriber is
   * disconnected (local events still flow; the subscription is made on reconnection), else as waitAtMost bounds it.
   */
  settled(idleMs: number, maxMs: number): Promise<void>;
  /** Subscribed now (Redis confirmed the SUBSCRIBE and no UNSUBSCRIBE followed). */
  active(): boolean;
  close(): void;
}

/** `announce`: once subscribed (and again after a reconnection), tells the other instances (redis-presence.ts). */
export function channelSubscription(subscriber: RedisSubscriber, channel: string, receive: (message: string) => void, graceMs: number, announce: (progress: () => void) => Promise<void>): ChannelSubscription {
  let wanted = false;
  // The listener is registered in node-redis (which then resubscribes it by itself after a reconnection).
  let subscribed = false;
  let busy = false;
  let closed = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const waiters = new Map<() => void, () => void>(); // done → progress
  const progress = () => {
    for (const tell of waiters.values()) tell();
  };

  // One SUBSCRIBE or UNSUBSCRIBE at a time, until the state is what the listeners want. A command that
  // fails (Redis unreachable) leaves the state as it was: the next 'ready' tries again.
  const reconcile = async () => {
    if (busy || closed) return;
    busy = true;
    try {
      while (!closed && wanted !== subscribed) {
        const subscribing = wanted;
        await (subscribing ? subscriber.subscribe(channel, receive) : subscriber.unsubscribe(channel, receive));
        subscribed = subscribing;
        if (!subscribing) continue;
        progress();
        await announce(progress);
      }
    } catch {
      // retried on the subscriber's next 'ready'
    } finally {
      busy = false;
    }
    if (subscribed && wanted) {
      for (const wake of waiters.keys()) wake();
      waiters.clear();
    }
  };
  // node-redis resubscribed by itself before 'ready': the others may have stopped publishing meanwhile.
  subscriber.on('ready', () => {
    if (subscribed && !busy) void announce(progress);
    void reconcile();
  });

  return {
    hold() {
      clearTimeout(grace);
      grace = undefined;
      wanted = true;
      void reconcile();
    },
    release() {
      if (grace !== undefined) return;
      grace = setTimeout(() => {
        grace = undefined;
        wanted = false;
        void reconcile();
      }, graceMs);
      grace.unref();
    },
    settled(idleMs, maxMs) {
      if ((subscribed && wanted && !busy) || !subscriber.isReady || closed) return Promise.resolve();
      return waitAtMost(idleMs, (done, progressed) => {
        waiters.set(done, progressed);
        return () => waiters.delete(done);
      }, maxMs);
    },
    active: () => subscribed,
    close() {
      closed = true;
      clearTimeout(grace);
      for (const wake of waiters.keys()) wake();
    },
  };
}
