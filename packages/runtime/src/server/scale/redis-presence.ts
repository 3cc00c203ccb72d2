// Publishing only while some instance listens (issue 33). A PUBLISH costs the publishing instance a write to
// Redis (and redis-server a wake-up) on every event, even when no instance has a listen stream open — the
// common case of a server whose clients never listen. Redis answers each PUBLISH with the number of
// subscribers it reached: 0 means no instance is subscribed (they subscribe only while they have listeners,
// redis-subscription.ts), and the instance stops publishing ("quiet") until one announces it listens.
//
// The announcement makes that safe: an instance that has just subscribed publishes `listening:<nonce>` on
// a control channel every instance is subscribed to; each one, on receiving it, leaves quiet and answers
// `ack:<nonce>`; the announcer's listen acknowledgements wait until every instance Redis counted has
// answered (bounded: see redis-bus.ts). An event published after that is published, and the new listener hears it. A 0
// reply to a PUBLISH sent before an announcement arrived is ignored (the epoch changed), so a late reply
// cannot make an instance quiet again after it acknowledged. After a reconnection an instance leaves quiet
// (it may have missed announcements) and, if subscribed, announces again (others may have gone quiet
// while it was away).
import { randomUUID } from 'node:crypto';
import type { RedisConnection, RedisSubscriber } from './redis-connection.js';
import { waitAtMost } from './wait-at-most.js';

export interface ChannelPresence {
  /** Publish the next event: false while the last PUBLISH reached no instance and none announced since. */
  shouldPublish(): boolean;
  /** Before a PUBLISH: the token to hand to `published` with Redis's reply. */
  epoch(): number;
  /** Redis's reply to a PUBLISH sent at `epoch`: the number of subscribers it reached. */
  published(receivers: number, epoch: number): void;
  /** Tell every instance this one listens; resolves once all acknowledged, at once without Redis, or as waitAtMost bounds it (each reply is progress). */
  announce(idleMs: number, maxMs: number, progress?: () => void): Promise<void>;
}

export function channelPresence(publisher: RedisConnection, subscriber: RedisSubscriber, channel: string): ChannelPresence {
  const control = `${channel}:listening`;
  let quiet = false;
  let epoch = 0;
  let controlSubscribed = false;
  const pending = new Map<string, { acked: number; expected?: number; finish: () => void; progress: () => void }>();
  const wake = () => {
    epoch++;
    quiet = false;
  };
  const check = (nonce: string) => {
    const p = pending.get(nonce);
    if (p !== undefined && p.expected !== undefined && p.acked >= p.expected) p.finish();
  };
  const onControl = (message: string) => {
    if (typeof message !== 'string') return;
    if (message.startsWith('listening:')) {
      wake(); // before the ack: every event from now on is published
      publisher.publish(control, `ack:${message.slice('listening:'.length)}`).catch(() => {});
    } else if (message.startsWith('ack:')) {
      const nonce = message.slice('ack:'.length);
      const p = pending.get(nonce);
      if (p === undefined) return;
      p.acked++;
      p.progress();
      check(nonce);
    }
  };
  const subscribeControl = () => {
    if (controlSubscribed) return;
    subscriber.subscribe(control, onControl).then(() => void (controlSubscribed = true), () => {});
  };
  subscribeControl();
  subscriber.on('ready', () => {
    wake();
    subscribeControl();
  });

  return {
    shouldPublish: () => !quiet,
    epoch: () => epoch,
    published(receivers, sentAt) {
      if (receivers === 0 && sentAt === epoch) quiet = true;
    },
    announce(idleMs, maxMs, told) {
      if (!publisher.isReady || !subscriber.isReady) return Promise.resolve();
      const nonce = randomUUID();
      return waitAtMost(idleMs, (finish, progressed) => {
        const progress = () => {
          progressed();
          told?.();
        };
        pending.set(nonce, { acked: 0, finish, progress });
        // Redis's reply counts the instances subscribed to the control channel, this one included: each acks.
        publisher.publish(control, `listening:${nonce}`).then((receivers) => {
          const p = pending.get(nonce);
          if (p === undefined) return;
          p.expected = receivers;
          p.progress();
          check(nonce);
        }, finish);
        return () => pending.delete(nonce);
      }, maxMs);
    },
  };
}
