import type { PeriodName, Quote, StaffRole } from '@tradeport/contracts';
import type { Candle } from '../../domain/candles';
import type { WebSocket } from 'ws';

/** A stream connection (stream-hub.ts). */
export interface Client {
  socket: WebSocket;
  userId: number;
  /** A staff member's roles (none for a trader): the back-office events it may follow. */
  staffRoles: readonly StaffRole[];
  token: string;
  seq: number;
  symbols: Set<string>;
  /** The trading account its quotes are priced for (null: none, the book's prices), and its type. */
  accountId: number | null;
  typeId: number | undefined;
  /** Counts the pricing look-ups started: only the latest one's answer is applied. */
  pricings: number;
  group: Group | null;
  candleKeys: Set<string>;
  /** Quotes carried over from frames this client was skipped in (slow reader); usually empty. */
  pendingQuotes: Map<string, Quote>;
  /** Candles waiting for the next frame, by symbol, period and bucket. */
  pendingCandles: Map<string, CandleUpdate>;
  alive: boolean;
  /** performance.now() time of this client's next heartbeat. */
  nextHeartbeat: number;
  /** performance.now() times of the client's latest messages (a ring), to tell more than the limit in any one second. */
  recentMessages: Float64Array;
  /** Messages received so far (where the next time goes in the ring). */
  messagesReceived: number;
}

/** A candle message's body. */
export interface CandleUpdate {
  symbol: string;
  period: PeriodName;
  candle: Candle;
}

/** Clients following exactly the same symbols at the same prices (account type): each frame's quotes are picked out once for them all. */
export interface Group {
  key: string;
  typeId: number | undefined;
  symbols: string[];
  symbolSet: Set<string>;
  clients: Set<Client>;
}

/** WebSocket's readyState of an open connection. */
export const OPEN = 1;

/**
 * The stream's clients by the set of symbols they follow: once per frame, the quotes that changed
 * are picked out once per group, and every client of the group is handed that same list.
 */
export class QuoteGroups {
  private readonly groups = new Map<string, Group>();

  /** Takes the client out of its group; a group left empty goes. */
  leave(client: Client): void {
    const g = client.group;
    if (!g) return;
    g.clients.delete(client);
    if (g.clients.size === 0) this.groups.delete(g.key);
    client.group = null;
  }

  /** Puts the client in the group of the symbols it follows now (none: in no group). */
  join(client: Client): void {
    this.leave(client);
    if (client.symbols.size === 0) return;
    const symbols = [...client.symbols].sort();
    const key = `${client.typeId ?? ''}|${symbols.join(',')}`;
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { key, typeId: client.typeId, symbols, symbolSet: new Set(symbols), clients: new Set() }));
    g.clients.add(client);
    client.group = g;
  }

  /**
   * Hands each open client the quotes of this frame that it follows (none: not called), at its
   * group's prices (`price`), with the group's message for them encoded once (`QuotesMessage`).
   */
  forEach(changed: ReadonlyMap<string, Quote>, price: (typeId: number | undefined, quote: Quote) => Quote, deliver: (client: Client, quotes: Quote[], message: QuotesMessage) => void): void {
    for (const g of this.groups.values()) {
      const quotes: Quote[] = [];
      if (changed.size < g.symbols.length) {
        for (const [symbol, quote] of changed) if (g.symbolSet.has(symbol)) quotes.push(quote);
      } else {
        for (const symbol of g.symbols) {
          const quote = changed.get(symbol);
          if (quote !== undefined) quotes.push(quote);
        }
      }
      if (g.typeId !== undefined) for (let i = 0; i < quotes.length; i++) quotes[i] = price(g.typeId, quotes[i]!);
      if (quotes.length === 0) continue;
      const message = new QuotesMessage(quotes);
      for (const c of g.clients) if (c.socket.readyState === OPEN) deliver(c, quotes, message);
    }
  }
}

/**
 * One frame's `quotes` message for every client of a group, its quotes encoded once: the bytes of
 * `JSON.stringify({ type: 'quotes', seq, quotes })` for each client's own `seq` (the stream tests
 * hold it to that). The one message the hub does not hand to JSON.stringify whole: a group's
 * clients all get the same quotes, and encoding them again for each client halved the quotes
 * delivered at 5,000 clients (docs/benchmarks.md, stream fan-out).
 */
export class QuotesMessage {
  private readonly tail: Buffer;

  constructor(quotes: readonly Quote[]) {
    this.tail = Buffer.from(`,"quotes":${JSON.stringify(quotes)}}`);
  }

  /** The message with this `seq`. */
  bytes(seq: number): Buffer {
    return Buffer.concat([Buffer.from(`{"type":"quotes","seq":${JSON.stringify(seq)}`), this.tail]);
  }
}
