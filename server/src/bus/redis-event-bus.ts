import { randomBytes } from 'node:crypto';
import { busEvent, type BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import { mac, macMatches, SequenceGuard, type ClusterKeys } from '../cluster-keys';
import type { EventBus, QuoteBatch } from './event-bus';

/**
 * How far a bus message's time may be from this instance's clock: older ones are dropped (a
 * capture sent again later, a backlog too old to matter), and so are ones stamped further ahead.
 * Generous for clocks kept by NTP, short for a replay.
 */
export const BUS_WINDOW_MS = 10_000;
/** How often, at most, dropped messages are reported. */
const DROPPED_REPORT_MS = 60_000;

/** The channels, each after the deployment's prefix (`ClusterKeys.channelPrefix`). */
const EVENTS = 'account-events';
const QUOTES = 'quotes';
/** A follower asks the leader for its whole book here. */
const WANTED = 'quotes-wanted';

/**
 * What travels on a channel: `<MAC>.<envelope JSON>`, the MAC (the bus key's HMAC-SHA256 over the
 * channel's name and the envelope) first. The envelope names its sender (a random id per bus),
 * numbers the sender's messages (`q`), stamps its time (`t`) and carries the payload (`p`): a
 * message anyone could publish without the secret fails the MAC, one moved to another channel too,
 * and one captured and published again is older than the window or numbered at or below what its
 * sender last sent (`SequenceGuard`). Any such message is dropped before it is parsed further.
 */
interface Envelope {
  s: string;
  q: number;
  t: number;
  p: unknown;
}

function quoteBatch(value: unknown): QuoteBatch | null {
  if (typeof value !== 'object' || value === null) return null;
  const { from, quotes, full, epoch } = value as { from?: unknown; quotes?: unknown; full?: unknown; epoch?: unknown };
  if (typeof from !== 'string' || !Array.isArray(quotes) || (full !== undefined && full !== true) || !Number.isSafeInteger(epoch)) return null;
  const ok = quotes.every((q) => Array.isArray(q) && q.length === 4 && typeof q[0] === 'string' && q.slice(1).every((n) => typeof n === 'number'));
  return ok ? (value as QuoteBatch) : null;
}

/**
 * Publishes account events on a Redis channel so every server instance sees every event. An event
 * reaches this instance's own subscribers at once, Redis or not (the engine leader's fills reach
 * the browsers connected to it during an outage), and the other instances over Redis at most once:
 * while Redis is away an event is not sent to them at all, rather than queued and sent late, and a
 * publish under way when the connection drops is not sent again (Redis may have delivered it).
 */
export class RedisEventBus implements EventBus {
  /** This bus, as the sender of what it publishes (it skips its own when they come back). */
  private readonly id = randomBytes(8).toString('hex');
  /** The number of this bus's last message. */
  private seq = 0;
  private readonly guard = new SequenceGuard(BUS_WINDOW_MS);
  /** The channels the subscriber listens on, at the first connect and after every reconnect. */
  private readonly channels: { events: string; quotes: string; wanted: string };
  private dropped = 0;
  private droppedReportedAt = 0;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Set<(event: BusEvent) => void>();
  private readonly quoteHandlers = new Set<(batch: QuoteBatch) => void>();
  private readonly wantedHandlers = new Set<() => void>();
  private readonly linkHandlers = new Set<(link: 'publish' | 'subscribe', state: 'up' | 'down') => void>();

  private constructor(
    url: string,
    private readonly keys: ClusterKeys,
    private readonly onError: (err: unknown) => void,
  ) {
    const prefix = keys.channelPrefix;
    this.channels = { events: `${prefix}${EVENTS}`, quotes: `${prefix}${QUOTES}`, wanted: `${prefix}${WANTED}` };
    const options = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 };
    // Nothing is queued while the connection is down, nor sent again after it comes back: the
    // publisher checks that it is ready first, and a command lost with the connection fails.
    this.pub = new Redis(url, { ...options, enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
    // The subscriber subscribes again after a reconnect itself (below): ioredis's own
    // resubscription does not handle its command's failure, so a connection lost again before
    // Redis answered it was an unhandled rejection, which ends a Node process.
    this.sub = new Redis(url, { ...options, autoResubscribe: false });
    // ioredis reconnects by itself; errors are reported, never thrown at the process.
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    // Each connection's losses and returns, after the first connect (`onLink`). The subscriber is
    // "ready" one round trip before its new subscription is active: a follower
    // waits for the leader's next whole book after it anyway (cluster.ts).
    for (const [link, conn] of [['publish', this.pub], ['subscribe', this.sub]] as const) {
      let wasReady = false;
      conn.on('ready', () => {
        if (wasReady) {
          if (conn === this.sub) this.sub.subscribe(...this.subscribed()).catch(onError);
          this.linkChanged(link, 'up');
        }
        wasReady = true;
      });
      conn.on('close', () => {
        if (wasReady) this.linkChanged(link, 'down');
      });
    }
    this.sub.on('message', (channel: string, message: string) => {
      const payload = this.open(channel, message);
      if (payload === undefined) return;
      if (channel === this.channels.quotes) return this.deliverQuotes(payload);
      if (channel === this.channels.wanted) return this.deliverWanted();
      const parsed = busEvent.safeParse(payload);
      // Signed but not an event this version knows: never let it reach a subscriber.
      if (parsed.success) this.deliver(parsed.data);
    });
  }

  private subscribed(): string[] {
    return [this.channels.events, this.channels.quotes, this.channels.wanted];
  }

  /** `payload` in this deployment's signed envelope, for `channel`. */
  private seal(channel: string, payload: unknown): string {
    const envelope: Envelope = { s: this.id, q: ++this.seq, t: Date.now(), p: payload };
    const json = JSON.stringify(envelope);
    return `${mac(this.keys.bus, `${channel}\n${json}`)}.${json}`;
  }

  /**
   * The payload of a message that verifies — signed with this deployment's key for this channel,
   * fresh, not sent by this bus itself — or undefined: a message that does not is dropped here,
   * before anything reads it.
   */
  private open(channel: string, message: string): unknown {
    const dot = message.indexOf('.');
    const json = message.slice(dot + 1);
    if (dot <= 0 || !macMatches(this.keys.bus, `${channel}\n${json}`, message.slice(0, dot))) return this.drop();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(json) as Envelope;
    } catch {
      return this.drop();
    }
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.s !== 'string') return this.drop();
    // Its own, delivered here already when it was published.
    if (envelope.s === this.id) return undefined;
    if (!this.guard.accept(envelope.s, envelope.q, envelope.t)) return this.drop();
    return envelope.p;
  }

  /**
   * Counts a dropped message and says so now and then: many of them mean an instance with another
   * CLUSTER_SECRET (it hears nothing either), or someone publishing on this deployment's channels.
   */
  private drop(): undefined {
    this.dropped += 1;
    const now = Date.now();
    if (now - this.droppedReportedAt >= DROPPED_REPORT_MS) {
      this.droppedReportedAt = now;
      this.onError(new Error(`dropped ${this.dropped} bus message(s) that did not verify (not signed with this CLUSTER_SECRET, replayed, or too old)`));
      this.dropped = 0;
    }
    return undefined;
  }

  private linkChanged(link: 'publish' | 'subscribe', state: 'up' | 'down'): void {
    for (const handler of this.linkHandlers) {
      try {
        handler(link, state);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  onLink(handler: (link: 'publish' | 'subscribe', state: 'up' | 'down') => void): () => void {
    this.linkHandlers.add(handler);
    return () => this.linkHandlers.delete(handler);
  }

  private deliver(event: BusEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch {
        // isolated per subscriber
      }
    }
  }

  static async connect(url: string, keys: ClusterKeys, onError: (err: unknown) => void = () => undefined): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, keys, onError);
    await bus.pub.connect();
    await bus.sub.connect();
    await bus.sub.subscribe(...bus.subscribed());
    return bus;
  }

  publish(event: BusEvent): void {
    // Here, asynchronously (like the in-process bus: never inside the publisher's call).
    queueMicrotask(() => this.deliver(event));
    // Elsewhere only while Redis is reachable: an event the others miss is not replayed later.
    if (this.pub.status !== 'ready') return;
    this.pub.publish(this.channels.events, this.seal(this.channels.events, event)).catch(this.onError);
  }

  subscribe(handler: (event: BusEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  connected(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  relayQuotes(batch: QuoteBatch): void {
    // Quotes are worth only their latest: none are queued while Redis is away.
    if (this.pub.status !== 'ready') return;
    this.pub.publish(this.channels.quotes, this.seal(this.channels.quotes, batch)).catch(this.onError);
  }

  onRelayedQuotes(handler: (batch: QuoteBatch) => void): () => void {
    this.quoteHandlers.add(handler);
    return () => this.quoteHandlers.delete(handler);
  }

  wantFullBook(): void {
    if (this.pub.status !== 'ready') return;
    this.pub.publish(this.channels.wanted, this.seal(this.channels.wanted, null)).catch(this.onError);
  }

  onFullBookWanted(handler: () => void): () => void {
    this.wantedHandlers.add(handler);
    return () => this.wantedHandlers.delete(handler);
  }

  private deliverWanted(): void {
    for (const handler of this.wantedHandlers) {
      try {
        handler();
      } catch {
        // isolated per subscriber
      }
    }
  }

  private deliverQuotes(payload: unknown): void {
    const batch = quoteBatch(payload);
    if (!batch) return;
    for (const handler of this.quoteHandlers) {
      try {
        handler(batch);
      } catch {
        // isolated per subscriber
      }
    }
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.quoteHandlers.clear();
    this.linkHandlers.clear();
    this.wantedHandlers.clear();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
