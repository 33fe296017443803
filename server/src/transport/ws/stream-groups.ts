import type { WebSocket } from 'ws';

/** A stream connection (stream-hub.ts). */
export interface Client {
  socket: WebSocket;
  userId: number;
  role: 'trader' | 'admin';
  token: string;
  seq: number;
  symbols: Set<string>;
  group: Group | null;
  candleKeys: Set<string>;
  /** Quotes carried over from frames this client was skipped in (slow reader); usually empty. */
  pendingQuotes: Map<string, string>;
  pendingCandles: Map<string, string>;
  alive: boolean;
  /** performance.now() time of this client's next heartbeat. */
  nextHeartbeat: number;
  messagesThisSecond: number;
}

/** Clients following exactly the same symbols share the body of their quotes messages. */
export interface Group {
  key: string;
  symbols: string[];
  symbolSet: Set<string>;
  clients: Set<Client>;
}

/** WebSocket's readyState of an open connection. */
export const OPEN = 1;

/**
 * The stream's clients by the set of symbols they follow: once per frame, the quotes that changed
 * are encoded once per group, and every client of the group is sent that body behind its own `seq`.
 */
export class QuoteGroups {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly maxBufferedBytes: number) {}

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
    const key = symbols.join(',');
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { key, symbols, symbolSet: new Set(symbols), clients: new Set() }));
    g.clients.add(client);
    client.group = g;
  }

  /**
   * Sends each group's changed quotes, with the body built and encoded once per group; a client
   * that reads slowly gets them merged into its own pending quotes instead, and is `skipped`.
   */
  send(changed: ReadonlyMap<string, string>, skipped: (client: Client) => void): void {
    for (const g of this.groups.values()) {
      const fragments: string[] = [];
      if (changed.size < g.symbols.length) {
        for (const [symbol, fragment] of changed) if (g.symbolSet.has(symbol)) fragments.push(fragment);
      } else {
        for (const symbol of g.symbols) {
          const fragment = changed.get(symbol);
          if (fragment !== undefined) fragments.push(fragment);
        }
      }
      if (fragments.length === 0) continue;
      const tail = Buffer.from(`,"quotes":[${fragments.join(',')}]}`);
      for (const c of g.clients) {
        if (c.socket.readyState !== OPEN) continue;
        if (c.pendingQuotes.size > 0 || c.socket.bufferedAmount > this.maxBufferedBytes) {
          // Slow path: merged into the client's own pending quotes (newest wins), sent by the
          // hub's flush() once its buffer drains.
          for (const symbol of g.symbols) {
            const fragment = changed.get(symbol);
            if (fragment !== undefined) c.pendingQuotes.set(symbol, fragment);
          }
          skipped(c);
          continue;
        }
        c.seq += 1;
        c.socket.send(Buffer.concat([Buffer.from(`{"type":"quotes","seq":${c.seq}`), tail]), { binary: false });
      }
    }
  }
}
