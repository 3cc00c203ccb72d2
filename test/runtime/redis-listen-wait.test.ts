// How long the Redis event bus holds a listen stream's acknowledgement (redis-subscription.ts with
// redis-presence.ts, composed as redis-bus.ts composes them), against a stand-in Redis whose replies to one
// instance take a set time. The wait must cover every step — the SUBSCRIBE, the announcement, each ack —
// however long they take in all while Redis keeps answering; and end soon after Redis stops answering.
// A bound on the whole wait (2 s) once released an acknowledgement before the SUBSCRIBE stood, on a
// starved machine, and the event published next was lost (test/interop/redis-bus-listeners.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RedisConnection, RedisSubscriber } from '../../packages/runtime/src/server/scale/redis-connection.js';
import { channelPresence } from '../../packages/runtime/src/server/scale/redis-presence.js';
import { channelSubscription } from '../../packages/runtime/src/server/scale/redis-subscription.js';

const IDLE_MS = 2_000;
const MAX_MS = 10_000;

/** Pub/sub of one Redis; each instance's replies and messages reach it `lagMs` late, or never once `hung`. */
class StandInRedis {
  private readonly channels = new Map<string, Set<(message: string) => void>>();

  instance(lagMs: number) {
    const link = { hung: false };
    const late = (run: () => void) => void setTimeout(() => link.hung || run(), lagMs);
    const delivered = new Map<(m: string) => void, (m: string) => void>();
    const publisher = {
      isReady: true,
      publish: (channel: string, message: string) => {
        const listeners = [...(this.channels.get(channel) ?? [])];
        for (const listener of listeners) listener(message);
        return new Promise<number>((resolve) => late(() => resolve(listeners.length)));
      },
    } as unknown as RedisConnection;
    const subscriber: RedisSubscriber = {
      isReady: true,
      subscribe: (channel, listener) =>
        new Promise((resolve) =>
          late(() => {
            const through = (m: string) => late(() => listener(m));
            delivered.set(listener, through);
            this.channelOf(channel).add(through);
            resolve();
          }),
        ),
      unsubscribe: async (channel, listener) => void this.channelOf(channel).delete(delivered.get(listener)!),
      on: () => undefined,
    };
    return { publisher, subscriber, link };
  }

  private channelOf(channel: string) {
    if (!this.channels.has(channel)) this.channels.set(channel, new Set());
    return this.channels.get(channel)!;
  }
}

function busInstance(redis: StandInRedis, lagMs: number) {
  const { publisher, subscriber, link } = redis.instance(lagMs);
  const presence = channelPresence(publisher, subscriber, 'inv');
  const state = channelSubscription(subscriber, 'inv', () => {}, 100, (progress) => presence.announce(IDLE_MS, MAX_MS, progress));
  return { state, link };
}

/** A listener arrives: `at` is when `settled` resolved, in ms after that (fake time), undefined until then. */
function listen(state: ReturnType<typeof busInstance>['state']): { at?: number } {
  const start = Date.now();
  const wait: { at?: number } = {};
  state.hold();
  void state.settled(IDLE_MS, MAX_MS).then(() => (wait.at = Date.now() - start));
  return wait;
}

describe('a listen acknowledgement held until Redis confirmed the subscription', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('waits through a slow link whose steps add up to more than the idle bound (3 × 800 ms)', async () => {
    const redis = new StandInRedis();
    busInstance(redis, 0); // another instance, on a fast link: it acknowledges at once
    const slow = busInstance(redis, 800);
    await vi.advanceTimersByTimeAsync(1_000); // both subscribed to the control channel
    // SUBSCRIBE confirmed at 800; the announcement's reply and its own message back at 1,600; its own ack back at 2,400.
    const wait = listen(slow.state);
    await vi.advanceTimersByTimeAsync(2_399);
    expect(wait.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.at).toBe(2_400);
    expect(slow.state.active()).toBe(true);
  });

  it('is released once Redis stopped answering for the idle bound, counted from its last reply', async () => {
    const redis = new StandInRedis();
    busInstance(redis, 0);
    const slow = busInstance(redis, 800);
    await vi.advanceTimersByTimeAsync(1_000);
    setTimeout(() => void (slow.link.hung = true), 900); // after the SUBSCRIBE's reply (800), before any other
    const wait = listen(slow.state);
    await vi.advanceTimersByTimeAsync(800 + IDLE_MS - 1);
    expect(wait.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.at).toBe(800 + IDLE_MS);
    expect(slow.state.active()).toBe(true); // subscribed: only the announcement went unanswered
  });

  it('is released after the whole bound when replies keep coming but never complete', async () => {
    const redis = new StandInRedis();
    const slow = busInstance(redis, 1_500);
    await vi.advanceTimersByTimeAsync(2_000);
    // A crowd of instances that acknowledge one every 1.5 s: progress, never all of them.
    const crowd = redis.instance(0);
    void crowd.subscriber.subscribe('inv:listening', (message) => {
      if (!message.startsWith('listening:')) return;
      for (let i = 1; i <= 20; i++) setTimeout(() => void crowd.publisher.publish('inv:listening', `ack:${message.slice(10)}`), i * 1_500);
    });
    for (let i = 0; i < 30; i++) void crowd.subscriber.subscribe('inv:listening', () => {}); // Redis counts 30 more receivers
    await vi.advanceTimersByTimeAsync(1);
    const wait = listen(slow.state);
    await vi.advanceTimersByTimeAsync(MAX_MS - 1);
    expect(wait.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.at).toBe(MAX_MS);
  });
});
