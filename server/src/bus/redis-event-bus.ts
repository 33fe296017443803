import { busEvent, type BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import type { EventBus } from './event-bus';

const CHANNEL = 'tradeport:account-events';

/** Publishes account events on a Redis channel so every server instance sees every event. */
export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Set<(event: BusEvent) => void>();

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
    this.sub.on('message', (_channel: string, message: string) => {
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
    await bus.sub.subscribe(CHANNEL);
    return bus;
  }

  publish(event: BusEvent): void {
    this.pub.publish(CHANNEL, JSON.stringify(event)).catch(this.onError);
  }

  subscribe(handler: (event: BusEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
