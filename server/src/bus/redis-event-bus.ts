import { busEvent, type BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import type { EventBus, QuoteBatch } from './event-bus';

const CHANNEL = 'tradeport:account-events';
const QUOTES = 'tradeport:quotes';

function quoteBatch(value: unknown): QuoteBatch | null {
  if (typeof value !== 'object' || value === null) return null;
  const { from, quotes } = value as { from?: unknown; quotes?: unknown };
  if (typeof from !== 'string' || !Array.isArray(quotes)) return null;
  const ok = quotes.every((q) => Array.isArray(q) && q.length === 4 && typeof q[0] === 'string' && q.slice(1).every((n) => typeof n === 'number'));
  return ok ? (value as QuoteBatch) : null;
}

/** Publishes account events on a Redis channel so every server instance sees every event. */
export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Set<(event: BusEvent) => void>();
  private readonly quoteHandlers = new Set<(batch: QuoteBatch) => void>();

  private constructor(
    url: string,
    private readonly onError: (err: unknown) => void,
  ) {
    const options = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    // ioredis reconnects by itself; errors are reported, never thrown at the process.
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === QUOTES) return this.deliverQuotes(message);
      let parsed: BusEvent;
      try {
        parsed = busEvent.parse(JSON.parse(message));
      } catch {
        return; // Not ours or malformed: never let a bad message reach a subscriber.
      }
      for (const handler of this.handlers) {
        try {
          handler(parsed);
        } catch {
          // isolated per subscriber
        }
      }
    });
  }

  static async connect(url: string, onError: (err: unknown) => void = () => undefined): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, onError);
    await bus.pub.connect();
    await bus.sub.connect();
    await bus.sub.subscribe(CHANNEL, QUOTES);
    return bus;
  }

  publish(event: BusEvent): void {
    this.pub.publish(CHANNEL, JSON.stringify(event)).catch(this.onError);
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
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
