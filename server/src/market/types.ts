/**
 * The shapes every part of market data agrees on. Providers turn their own messages into
 * `IncomingTick`s and hand them to a `TickSink` (the quote book); everything downstream reads the
 * book. Prices are numbers at the instrument's digits (they are not money); times are epoch ms.
 */
export interface IncomingTick {
  /** Our symbol (e.g. EURUSD), already mapped from the provider's name. */
  symbol: string;
  bid: number;
  ask: number;
  /** Provider time if it gives one; the book uses its own clock otherwise. */
  time?: number;
}

export type IngestResult = { ok: true } | { ok: false; reason: string };

export interface TickSink {
  ingest(tick: IncomingTick, source: string): IngestResult;
}

/** A source of prices. `start` begins feeding the sink; `stop` ends every connection and timer. */
export interface FeedProvider {
  readonly name: string;
  start(sink: TickSink): void;
  stop(): Promise<void>;
}

/** A quote in the book: the latest tick of a symbol after validation, rounding and markup. */
export interface BookQuote {
  symbol: string;
  bid: number;
  ask: number;
  time: number;
  /**
   * The markup in points the quote was made with: the catalogue's at the time on the book's own
   * quotes, the type's on an account type's (`TypePrices`); absent (a relayed or restored quote):
   * the catalogue's now. A deal's markup earned is the one in its price.
   */
  markup?: number;
}
