import type { Quote } from '@tradeport/contracts';

/**
 * The live quotes the stream client holds (`stream-client.ts`), outside React: the latest quote
 * of each symbol with the way its bid and ask last moved, who follows which symbol, and the
 * page's own quotes until the client has its own. Told of a quote, it keeps it and tells that
 * symbol's followers only, so a tick re-renders only what shows that symbol. `QuotePoller` feeds
 * it by REST while the socket is down.
 */

export type Direction = 'up' | 'down' | 'none';

/** A symbol's latest quote with its movement versus the previous different value. Immutable. */
export interface QuoteEntry {
  quote: Quote;
  bidDirection: Direction;
  askDirection: Direction;
}

/** A symbol's entry for a quote with nothing before it to move from. */
export function firstEntry(quote: Quote): QuoteEntry {
  return { quote, bidDirection: 'none', askDirection: 'none' };
}

function direction(previous: number | null | undefined, next: number | null, before: Direction): Direction {
  if (previous === null || previous === undefined || next === null || next === previous) return before;
  return next > previous ? 'up' : 'down';
}

type Listener = () => void;

export class QuoteBook {
  private readonly quotes = new Map<string, QuoteEntry>();
  /** Symbols whose quote is still the page's seed (`seed`). */
  private readonly seeded = new Set<string>();
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Symbol changes are told once per task, so a page of rows mounting costs one message, not twenty. */
  private readonly pendingFollow = new Set<string>();
  private readonly pendingUnfollow = new Set<string>();
  private flushQueued = false;

  /**
   * `onChange(followed, unfollowed)`: the symbols that got their first follower and those that
   * lost their last, gathered over the current task (the server allows a few dozen client
   * messages a second; a symbol dropped and followed again meanwhile cancels out).
   */
  constructor(private readonly onChange: (followed: string[], unfollowed: string[]) => void) {}

  get(symbol: string): QuoteEntry | undefined {
    return this.quotes.get(symbol);
  }

  /** The symbols someone follows. */
  followed(): string[] {
    return [...this.listeners.keys()];
  }

  /**
   * Quotes the page came with (the server's, as it sent the page: see page-frames.tsx), shown
   * until the client has its own. They are provisional: the first quote of a symbol from the
   * stream or a poll replaces its seed whatever its time, since it may come from another instance
   * whose book is behind, or stale, which the table must then show. A symbol already quoted keeps
   * its quote.
   */
  seed(quotes: readonly Quote[]): void {
    for (const quote of quotes) {
      if (this.quotes.has(quote.symbol)) continue;
      this.quotes.set(quote.symbol, firstEntry(quote));
      this.seeded.add(quote.symbol);
      this.notify(quote.symbol);
    }
  }

  /** Follow one symbol's quote; returns the way to stop. */
  follow(symbol: string, listener: Listener): () => void {
    let listeners = this.listeners.get(symbol);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(symbol, listeners);
      this.queueChange(symbol, true);
    }
    listeners.add(listener);
    return () => {
      const current = this.listeners.get(symbol);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(symbol);
        this.queueChange(symbol, false);
      }
    };
  }

  /** A quote from the stream or a poll: kept unless it is older than the one held or the same. */
  apply(quote: Quote): void {
    const previous = this.quotes.get(quote.symbol);
    // The client's first quote of a symbol replaces the page's seed, whatever its time.
    const seed = this.seeded.delete(quote.symbol);
    // An answer to a slow poll must not take a price back in time.
    if (!seed && previous && previous.quote.time !== null && quote.time !== null && quote.time < previous.quote.time) return;
    if (!seed && previous && previous.quote.bid === quote.bid && previous.quote.ask === quote.ask && previous.quote.stale === quote.stale && previous.quote.open === quote.open && previous.quote.time === quote.time) return;
    this.quotes.set(quote.symbol, {
      quote,
      bidDirection: direction(previous?.quote.bid, quote.bid, previous?.bidDirection ?? 'none'),
      askDirection: direction(previous?.quote.ask, quote.ask, previous?.askDirection ?? 'none'),
    });
    this.notify(quote.symbol);
  }

  /** Drops every quote held (sign-out: the next user's page starts from nothing); followers stay. */
  forget(): void {
    this.quotes.clear();
    this.seeded.clear();
    this.pendingFollow.clear();
    this.pendingUnfollow.clear();
  }

  /** Neither the socket nor REST answers: every price held is no longer current. */
  markAllStale(): void {
    for (const [symbol, entry] of this.quotes) {
      if (entry.quote.stale) continue;
      this.quotes.set(symbol, { ...entry, quote: { ...entry.quote, stale: true } });
      this.notify(symbol);
    }
  }

  private queueChange(symbol: string, follow: boolean): void {
    if (follow) {
      if (!this.pendingUnfollow.delete(symbol)) this.pendingFollow.add(symbol);
    } else if (!this.pendingFollow.delete(symbol)) this.pendingUnfollow.add(symbol);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const followed = [...this.pendingFollow];
      const unfollowed = [...this.pendingUnfollow];
      this.pendingFollow.clear();
      this.pendingUnfollow.clear();
      this.onChange(followed, unfollowed);
    });
  }

  private notify(symbol: string): void {
    this.listeners.get(symbol)?.forEach((l) => l());
  }
}

/**
 * The spec's 1 s refresh while the socket is down: the followed symbols' quotes asked for by REST
 * into the book, one request at a time, kept only while `wanted()` (the socket not yet open).
 * When REST does not answer either, every price held turns stale.
 */
export class QuotePoller {
  private timer: ReturnType<typeof setInterval> | null = null;
  private inFlight = false;

  constructor(
    private readonly book: QuoteBook,
    private readonly poll: (symbols: string[]) => Promise<Quote[]>,
    private readonly intervalMs: number,
    private readonly wanted: () => boolean,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const symbols = this.book.followed();
      if (symbols.length === 0 || this.inFlight) return;
      this.inFlight = true;
      this.poll(symbols)
        .then((quotes) => {
          if (this.wanted()) quotes.forEach((q) => this.book.apply(q));
        })
        .catch(() => {
          // Neither the socket nor REST answers: the prices shown are no longer current.
          if (this.wanted()) this.book.markAllStale();
        })
        .finally(() => {
          this.inFlight = false;
        });
    }, this.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
