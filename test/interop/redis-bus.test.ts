// The Redis event bus in process, against a real redis-server: delivery once per listener, garbage
// dropped and counted, Redis down and back.
import { createClient } from '@redis/client';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisEventBus, type RedisEventBus } from '../../packages/runtime/src/server/index.js';
import { parseMessage } from '../../packages/runtime/src/server/scale/redis-bus.js';
import { waitFor } from '../support/ports.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
const buses: RedisEventBus[] = [];
const states: string[] = [];

async function bus(channel: string): Promise<{ bus: RedisEventBus; heard: ServerEvent[] }> {
  const b = await createRedisEventBus({ url: redis.url, channel, onStateChange: (s) => states.push(s) });
  buses.push(b);
  await b.ready();
  const heard: ServerEvent[] = [];
  b.subscribe((e) => heard.push(e));
  await b.listening(); // the channel is subscribed once a listener is there
  return { bus: b, heard };
}

const settle = () => new Promise((r) => setTimeout(r, 200));

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled(buses.map((b) => b.close()));
  await redis?.kill();
});

describe('Redis event bus', () => {
  it('delivers an event once to the publishing instance and once to every other', async () => {
    const [a, b, c] = await Promise.all([bus('t1'), bus('t1'), bus('t1')]);
    a.bus.publish({ kind: 'tools_list_changed' });
    b.bus.publish({ kind: 'resource_updated', uri: 'x://1' });
    await waitFor(() => [a, b, c].every((x) => x.heard.length === 2));
    await settle();
    for (const x of [a, b, c]) {
      expect(x.heard).toHaveLength(2);
      expect(x.heard).toContainEqual({ kind: 'tools_list_changed' });
      expect(x.heard).toContainEqual({ kind: 'resource_updated', uri: 'x://1' });
    }
    expect(a.bus.stats()).toMatchObject({ published: 1, received: 1, dropped: 0 });
  });

  it('keeps channels apart', async () => {
    const [a, b] = await Promise.all([bus('t2-a'), bus('t2-b')]);
    a.bus.publish({ kind: 'prompts_list_changed' });
    await settle();
    expect(a.heard).toHaveLength(1);
    expect(b.heard).toEqual([]);
  });

  it('drops and counts what is not a valid event of its format', async () => {
    const { bus: b, heard } = await bus('t3');
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const garbage = ['', 'x', '{}', '{"v":1,"from":"o","event":{"kind":"resources_list_changed","params":"p"}}', '{"v":"1","from":"o","event":{"kind":"tools_list_changed"}}'];
    for (const g of garbage) await raw.publish('t3', g);
    await raw.close();
    await waitFor(() => b.stats().dropped === garbage.length);
    expect(heard).toEqual([]);
  });

  it('delivers locally while Redis is down, fails publishing fast, and reconnects by itself', async () => {
    const [a, b] = await Promise.all([bus('t4'), bus('t4')]);
    states.length = 0;
    await redis.kill();
    await waitFor(() => states.includes('disconnected'));
    a.bus.publish({ kind: 'tools_list_changed' });
    expect(a.heard).toEqual([{ kind: 'tools_list_changed' }]); // synchronously, Redis or not
    await waitFor(() => a.bus.stats().publishFailed >= 1);
    await redis.start();
    await waitFor(() => states.filter((s) => s === 'connected').length >= 2, 15_000);
    // Resubscribed: events flow between instances again.
    await waitFor(async () => {
      a.bus.publish({ kind: 'resources_list_changed' });
      await settle();
      return b.heard.some((e) => e.kind === 'resources_list_changed');
    }, 15_000);
    expect(b.heard.filter((e) => e.kind === 'tools_list_changed')).toEqual([]); // the event published while down is not replayed
  });
});

describe('channel messages', () => {
  const own = 'me';
  it.each([
    ['{"v":1,"from":"x","event":{"kind":"tools_list_changed"}}', { kind: 'tools_list_changed' }],
    ['{"v":1,"from":"x","event":{"kind":"resource_updated","uri":"a://b","params":{"_meta":{"k":1}}}}', { kind: 'resource_updated', uri: 'a://b', params: { _meta: { k: 1 } } }],
    ['{"v":1,"from":"me","event":{"kind":"tools_list_changed"}}', 'own'],
    ['{"v":1,"from":"x","event":{"kind":"tools_list_changed","extra":"ignored"}}', { kind: 'tools_list_changed' }],
    ['{"v":1,"from":"x","event":{"kind":"resource_updated","uri":""}}', undefined],
    ['{"v":1,"from":"x","event":{"kind":"__proto__"}}', undefined],
    ['{"v":1,"from":"x","event":null}', undefined],
    ['{"v":1,"from":1,"event":{"kind":"tools_list_changed"}}', undefined],
    ['"just a string"', undefined],
    [`{"v":1,"from":"x","event":{"kind":"tools_list_changed","params":{"p":"${'y'.repeat(70_000)}"}}}`, undefined],
  ])('%s', (message, expected) => {
    expect(parseMessage(message, own)).toEqual(expected);
  });
});
