// How the Redis event bus publishes (scale/redis-bus.ts), against a real redis-server on 127.0.0.1: without
// waiting for Redis, in order, each event once to every other instance and once to its own listeners (the
// echo from Redis, recognised by its prefix, is skipped).
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisEventBus, type RedisEventBus } from '../../packages/runtime/src/server/scale/redis-bus.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { waitFor } from '../support/ports.js';

let redis: RedisServer;
let a: RedisEventBus;
let b: RedisEventBus;

beforeAll(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all([createRedisEventBus({ url: redis.url, channel: 't', onStateChange: () => {} }), createRedisEventBus({ url: redis.url, channel: 't', onStateChange: () => {} })]);
  await Promise.all([a.ready(), b.ready()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.kill();
});

const uris = (events: ServerEvent[]) => events.map((e) => (e.kind === 'resource_updated' ? e.uri : e.kind));

describe('publishing on the Redis event bus', () => {
  it('1,000 events published in bursts reach the other instance in order, once each, and the own listeners once', async () => {
    const heardByA: ServerEvent[] = [];
    const heardByB: ServerEvent[] = [];
    const offA = a.subscribe((e) => void heardByA.push(e));
    const offB = b.subscribe((e) => void heardByB.push(e));
    await Promise.all([a.listening(), b.listening()]);
    const sent: string[] = [];
    for (let burst = 0; burst < 10; burst++) {
      // One tick's publishes go out together; the bursts are apart.
      for (let i = 0; i < 100; i++) {
        const uri = `inventory://items/${burst * 100 + i}`;
        sent.push(uri);
        a.publish({ kind: 'resource_updated', uri });
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => heardByB.length >= sent.length);
    await new Promise((r) => setTimeout(r, 200)); // room for a duplicate
    expect(uris(heardByB)).toEqual(sent);
    expect(uris(heardByA)).toEqual(sent); // at once, locally; the echo from Redis is skipped
    expect(a.stats()).toMatchObject({ published: 1000, publishFailed: 0, received: 0, dropped: 0 });
    expect(b.stats()).toMatchObject({ received: 1000, dropped: 0 });
    offA();
    offB();
  });
});
