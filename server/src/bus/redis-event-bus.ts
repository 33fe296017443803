import { randomBytes } from 'node:crypto';
import { busEvent, type BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import type { EventBus, QuoteBatch } from './event-bus';

const CHANNEL = 'tradeport:account-events';
const QUOTES = 'tradeport:quotes';
/** A follower asks the leader for its whole book here (an instance that does not know it ignores it). */
const WANTED = 'tradeport:quotes-wanted';
/**
 * The publishing bus, added to each account event it sends over Redis so that it skips its own
 * when they come back (they were delivered here already). Instances that do not know the field
 * drop it when they parse the event.
 */
const FROM = '_from';

function quoteBatch(value: unknown): QuoteBatch | null {
  if (typeof value !== 'object' || value === null) return null;
  const { from, quotes, full } = value as { from?: unknown; quotes?: unknown; full?: unknown };
  if (typeof from !== 'string' || !Array.isArray(quotes) || (full !== undefined && full !== true)) return null;
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
/** The channels the subscriber listens on, at the first connect and after every reconnect. */
const SUBSCRIBED = [CHANNEL, QUOTES, WANTED];

export class RedisEventBus implements EventBus {
  /** This bus, in the events it sends (see FROM). */
  private readonly id = randomBytes(8).toString('hex');
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Set<(event: BusEvent) => void>();
  private readonly quoteHandlers = new Set<(batch: QuoteBatch) => void>();
  private readonly wantedHandlers = new Set<() => void>();
  private readonly linkHandlers = new Set<(link: 'publish' | 'subscribe', state: 'up' | 'down') => void>();

  private constructor(
    url: string,
    private readonly onError: (err: unknown) => void,
  ) {
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
          if (conn === this.sub) this.sub.subscribe(...SUBSCRIBED).catch(onError);
          this.linkChanged(link, 'up');
        }
        wasReady = true;
      });
      conn.on('close', () => {
        if (wasReady) this.linkChanged(link, 'down');
      });
    }
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === QUOTES) return this.deliverQuotes(message);
      if (channel === WANTED) return this.deliverWanted();
      let parsed: BusEvent;
      try {
        const raw: unknown = JSON.parse(message);
        // Our own, delivered here when it was published.
        if (typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>)[FROM] === this.id) return;
        parsed = busEvent.parse(raw);
      } catch {
        return; // Not ours or malformed: never let a bad message reach a subscriber.
      }
      this.deliver(parsed);
    });
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

  static async connect(url: string, onError: (err: unknown) => void = () => undefined): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, onError);
    await bus.pub.connect();
    await bus.sub.connect();
    await bus.sub.subscribe(...SUBSCRIBED);
    return bus;
  }

  publish(event: BusEvent): void {
    // Here, asynchronously (like the in-process bus: never inside the publisher's call).
    queueMicrotask(() => this.deliver(event));
    // Elsewhere only while Redis is reachable: an event the others miss is not replayed later.
    if (this.pub.status !== 'ready') return;
    this.pub.publish(CHANNEL, JSON.stringify({ ...event, [FROM]: this.id })).catch(this.onError);
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
    this.pub.publish(QUOTES, JSON.stringify(batch)).catch(this.onError);
  }

  onRelayedQuotes(handler: (batch: QuoteBatch) => void): () => void {
    this.quoteHandlers.add(handler);
    return () => this.quoteHandlers.delete(handler);
  }

  wantFullBook(): void {
    if (this.pub.status !== 'ready') return;
    this.pub.publish(WANTED, '1').catch(this.onError);
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

  private deliverQuotes(message: string): void {
    let batch: QuoteBatch | null;
    try {
      batch = quoteBatch(JSON.parse(message));
    } catch {
      return;
    }
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
