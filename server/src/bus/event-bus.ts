import { EventEmitter } from 'node:events';
import type { BusEvent } from '@tradeport/contracts';

/**
 * Account events leave a service only after its transaction commits, through this bus. The
 * in-process bus serves one server; the Redis bus (redis-event-bus.ts) lets several instances
 * behind a load balancer deliver events to whichever one holds the user's socket.
 */
export interface EventBus {
  publish(event: BusEvent): void;
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
  /** Whether the bus reaches the other instances right now (a bus with none always does). */
  connected(): boolean;
  /**
   * Quotes from the engine leader to the other instances, on a bus that has any (Redis): a batch
   * is best effort, the next one carries newer prices, and nothing queues while the bus is down.
   */
  relayQuotes?(batch: QuoteBatch): void;
  onRelayedQuotes?(handler: (batch: QuoteBatch) => void): () => void;
  /** Asks the engine leader for its whole book now (a follower that missed batches), best effort. */
  wantFullBook?(): void;
  /** On the leader: a follower asked for the whole book. */
  onFullBookWanted?(handler: () => void): () => void;
  /**
   * Hears each connection of a bus with any (Redis) go down or come back (`publish`: the one that
   * sends; `subscribe`: the one that receives). Not called for the first connection.
   */
  onLink?(handler: (link: 'publish' | 'subscribe', state: 'up' | 'down') => void): () => void;
}

/** One relayed batch: who sent it, and each symbol's latest quote as [symbol, bid, ask, time]. */
export interface QuoteBatch {
  from: string;
  /**
   * The fencing epoch the sending leader's engine claimed (`engine_epoch`): a follower takes quotes
   * only from the newest leader it has heard, so a deposed leader that has not noticed yet, still
   * sending its last prices, is not believed once its successor has spoken.
   */
  epoch: number;
  quotes: [symbol: string, bid: number, ask: number, time: number][];
  /**
   * Set on a batch that carries the leader's whole book: after a gap (its bus reconnected) a
   * follower trusts its prices again only from such a batch on, since the batches it missed may
   * have changed any of them.
   */
  full?: true;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(event: BusEvent): void {
    // Deliver asynchronously so a slow or throwing subscriber never runs inside the publisher's call.
    queueMicrotask(() => this.emitter.emit('event', event));
  }

  subscribe(handler: (event: BusEvent) => void): () => void {
    const safe = (event: BusEvent) => {
      try {
        handler(event);
      } catch {
        // A subscriber's failure is its own; other subscribers still get the event.
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }

  connected(): boolean {
    return true;
  }
}
