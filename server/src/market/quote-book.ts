import type { Quote } from '@tradeport/contracts';
import { markupAbove, markupBelow, roundPrice, type Instrument } from '../domain/instruments';
import { isOpenAt } from '../domain/trading-sessions';
import type { BookQuote, IncomingTick, IngestResult, TickSink } from './types';

export interface QuoteBookOptions {
  now: () => number;
  /** An open market whose last tick is older than this is stale. */
  staleAfterMs: number;
  /** 'always' opens every market around the clock (schools, demos, deterministic tests). */
  sessions: 'real' | 'always';
  /** A listener's failure is reported here; it never stops the tick or the other listeners. */
  onListenerError?: (err: unknown) => void;
}

/**
 * A tick that moves the mid price by more than this fraction from a fresh current quote (one not
 * older than the stale limit) is refused as a feed error (a misplaced decimal point, a bridge
 * sending another symbol's price), not applied.
 */
export const MAX_TICK_MOVE = 0.5;
/** Tick times may run this far ahead of our clock (clock skew); later ones are refused. */
export const MAX_FUTURE_SKEW_MS = 5_000;

/**
 * On an instance that follows the engine leader's relayed quotes: a gap this long without a relayed
 * batch (the leader sends one at least every second, changes or not) makes every quote stale.
 */
export const RELAY_QUIET_MS = 3_000;

type MarkupTerms = Pick<Instrument, 'spreadMarkup' | 'point' | 'digits'>;

/**
 * A quote made with the markup and digits `was` made again with those of `now`: the raw feed price
 * is the quote without the old half-markups, and gets the new ones at the new digits. Null when it
 * leaves no price (a bid of zero or below, or an ask under the bid).
 */
export function remadeQuote(q: { bid: number; ask: number }, was: MarkupTerms, now: MarkupTerms): { bid: number; ask: number } | null {
  const bid = roundPrice(q.bid + markupBelow(was.spreadMarkup) * was.point - markupBelow(now.spreadMarkup) * now.point, now.digits);
  const ask = roundPrice(q.ask - markupAbove(was.spreadMarkup) * was.point + markupAbove(now.spreadMarkup) * now.point, now.digits);
  return Number.isFinite(bid) && Number.isFinite(ask) && bid > 0 && ask >= bid ? { bid, ask } : null;
}

type QuoteListener = (quote: BookQuote, instrument: Instrument) => void;

/**
 * The server's one source of current prices. Every provider writes here; the stream, candles, the
 * trading engine and the quote API read from here. A tick is validated (known symbol, finite,
 * positive, ask ≥ bid), rounded to the instrument's digits, widened by the broker's markup, and
 * applied only if it is not older than the quote it would replace. Listeners run synchronously, in
 * the order they subscribed, so by the time `ingest` returns every reader has seen the tick.
 */
export class QuoteBook implements TickSink {
  private readonly quotes = new Map<string, BookQuote>();
  /** Counts every change of any quote: a figure computed from the book at one count holds until the next. */
  private changes = 0;
  private readonly listeners: QuoteListener[] = [];
  /** Set while the book follows another instance's relayed quotes (`followRelay`). */
  private relay: { until: number; live: () => boolean; wantsFull: boolean } | null = null;
  readonly instruments: ReadonlyMap<string, Instrument>;

  constructor(
    instruments: Instrument[],
    private readonly options: QuoteBookOptions,
  ) {
    this.instruments = new Map(instruments.map((i) => [i.symbol, i]));
  }

  /**
   * Checks a tick without applying it; returns the quote it would make, or why it is refused.
   * `after` is the quote it must not be older than (the book's current one by default).
   */
  check(tick: IncomingTick, after: BookQuote | undefined = this.quotes.get(tick.symbol)): { quote: BookQuote } | { problem: string } {
    const instrument = this.instruments.get(tick.symbol);
    if (!instrument) return { problem: `Unknown symbol ${tick.symbol}.` };
    if (!Number.isFinite(tick.bid) || !Number.isFinite(tick.ask)) return { problem: `${tick.symbol}: bid and ask must be finite numbers.` };
    if (tick.bid <= 0 || tick.ask <= 0) return { problem: `${tick.symbol}: bid and ask must be positive.` };
    if (tick.ask < tick.bid) return { problem: `${tick.symbol}: ask must not be below bid.` };
    const now = this.options.now();
    if (tick.time !== undefined && (!Number.isSafeInteger(tick.time) || tick.time < 0)) return { problem: `${tick.symbol}: time must be epoch milliseconds.` };
    if (tick.time !== undefined && tick.time > now + MAX_FUTURE_SKEW_MS) return { problem: `${tick.symbol}: time is in the future.` };
    // A provider clock slightly ahead of ours is read as now, so it cannot freeze the symbol.
    const time = Math.min(tick.time ?? now, now);
    if (after && time < after.time) return { problem: `${tick.symbol}: tick is older than the current quote.` };
    const below = markupBelow(instrument.spreadMarkup) * instrument.point;
    const above = markupAbove(instrument.spreadMarkup) * instrument.point;
    const quote: BookQuote = { symbol: tick.symbol, bid: roundPrice(tick.bid - below, instrument.digits), ask: roundPrice(tick.ask + above, instrument.digits), time, markup: instrument.spreadMarkup };
    // Checked again after rounding and markup: huge numbers overflow, and a markup can eat the bid.
    if (!Number.isFinite(quote.bid) || !Number.isFinite(quote.ask) || quote.bid <= 0 || quote.ask < quote.bid) {
      return { problem: `${tick.symbol}: the price is out of range for ${instrument.digits} digits.` };
    }
    // Only a fresh quote is a fair reference: after a real gap (a weekend, an outage, a quote
    // restored at start) a large move is the market's, and comparing with the old price would
    // refuse every later tick and freeze the symbol for good.
    if (after && now - after.time <= this.options.staleAfterMs) {
      const move = Math.abs((quote.bid + quote.ask) / (after.bid + after.ask) - 1);
      if (move > MAX_TICK_MOVE) return { problem: `${tick.symbol}: the price moved ${Math.round(move * 100)}% in one tick; refused as a feed error.` };
    }
    return { quote };
  }

  /** Checks a tick against the current quote without applying it; null when it is acceptable. */
  validate(tick: IncomingTick): string | null {
    const result = this.check(tick);
    return 'problem' in result ? result.problem : null;
  }

  ingest(tick: IncomingTick, _source: string): IngestResult {
    const result = this.check(tick);
    if ('problem' in result) return { ok: false, reason: result.problem };
    this.apply(result.quote, this.instruments.get(tick.symbol) as Instrument);
    return { ok: true };
  }

  /** Makes `quote` the symbol's current one and tells every listener. */
  private apply(quote: BookQuote, instrument: Instrument): void {
    this.quotes.set(quote.symbol, quote);
    this.changes += 1;
    for (const listener of this.listeners) {
      try {
        listener(quote, instrument);
      } catch (err) {
        this.options.onListenerError?.(err);
      }
    }
  }

  /**
   * The back office changed an instrument in place (`was`: its markup, point and digits before).
   * Whether it is open is worked out again; where this book makes the quotes (`remake`: the engine
   * leader), its current quote is made again with the new markup and digits, at the same time, and
   * heard by the listeners as a tick, so a new markup applies before the next tick.
   */
  instrumentChanged(symbol: string, was: Pick<Instrument, 'spreadMarkup' | 'point' | 'digits'>, remake: boolean): void {
    this.openInMinute.delete(symbol);
    const instrument = this.instruments.get(symbol);
    const q = this.quotes.get(symbol);
    if (!remake || !instrument || !q || (was.spreadMarkup === instrument.spreadMarkup && was.digits === instrument.digits)) return;
    // A price that would not survive is refused before it is saved; should the price have moved since, the next tick applies it.
    const made = remadeQuote(q, was, instrument);
    if (made) this.apply({ symbol, ...made, time: q.time, markup: instrument.spreadMarkup }, instrument);
  }

  /**
   * Applies a quote the engine leader's book already made (validated, rounded, marked up), relayed
   * to this instance: no markup again, only the checks that keep a malformed or late message out.
   * Listeners (candles, the stream) hear it as a tick. Returns whether it was applied.
   */
  applyRelayed(quote: BookQuote): boolean {
    const instrument = this.instruments.get(quote.symbol);
    if (!instrument) return false;
    const { bid, ask, time } = quote;
    if (!Number.isFinite(bid) || !Number.isFinite(ask) || bid <= 0 || ask < bid || !Number.isSafeInteger(time)) return false;
    const current = this.quotes.get(quote.symbol);
    if (current && time < current.time) return false;
    this.apply({ symbol: instrument.symbol, bid, ask, time }, instrument);
    return true;
  }

  /**
   * Follows relayed quotes (`live`: whether the bus that brings them is up), or, with null, stops
   * following (this instance has feeds of its own again). While following, every quote counts as
   * stale until a batch arrives, once `RELAY_QUIET_MS` pass without one, while the bus is down, and
   * after the bus came back (`relayGap`) until a batch with the leader's whole book arrives: a dead
   * leader or a lost bus must not leave old prices looking live.
   */
  followRelay(live: (() => boolean) | null): void {
    this.relay = live ? { until: 0, live, wantsFull: false } : null;
  }

  /**
   * A relayed batch (perhaps empty: the leader's heartbeat) arrived: its quotes are live again —
   * after a gap only once it is `full` (the leader's whole book). False when it is still waiting for one.
   */
  relayArrived(full = false): boolean {
    const r = this.relay;
    if (!r) return true;
    if (r.wantsFull && !full) return false;
    r.wantsFull = false;
    r.until = this.options.now() + RELAY_QUIET_MS;
    return true;
  }

  /**
   * The bus that brings the relayed quotes lost its connection (or got it back): the batches missed
   * meanwhile may have changed any price, so the quotes are stale until the leader's whole book.
   */
  relayGap(): void {
    if (!this.relay) return;
    this.relay.until = 0;
    this.relay.wantsFull = true;
  }

  /**
   * Whether the relayed quotes this book follows are live now: a batch within `RELAY_QUIET_MS`, the
   * bus up, and the leader's whole book since the bus last came back (always, with feeds of its own).
   */
  relayLive(time = this.options.now()): boolean {
    return !this.relayQuiet(time);
  }

  /** Whether the quotes this book follows have gone quiet (always false with feeds of its own). */
  private relayQuiet(time: number): boolean {
    const r = this.relay;
    return r !== null && (time > r.until || r.wantsFull || !r.live());
  }

  /** Puts a remembered quote back after a restart without telling listeners (it is not a new tick). */
  restore(quote: BookQuote): void {
    if (this.instruments.has(quote.symbol) && !this.quotes.has(quote.symbol)) {
      this.quotes.set(quote.symbol, quote);
      this.changes += 1;
    }
  }

  /** How many times any quote has changed: equal counts mean the same prices everywhere. */
  get version(): number {
    return this.changes;
  }

  get(symbol: string): BookQuote | undefined {
    return this.quotes.get(symbol);
  }

  all(): BookQuote[] {
    return [...this.quotes.values()];
  }

  isOpen(symbol: string, time = this.options.now()): boolean {
    const instrument = this.instruments.get(symbol);
    if (!instrument) return false;
    if (this.options.sessions === 'always') return true;
    // Schedules, holidays and zone offsets all fall on whole minutes: one answer holds for the minute.
    const minute = Math.floor(time / 60_000);
    const known = this.openInMinute.get(symbol);
    if (known?.minute === minute) return known.open;
    const open = isOpenAt(instrument.schedule, time);
    this.openInMinute.set(symbol, { minute, open });
    return open;
  }
  private readonly openInMinute = new Map<string, { minute: number; open: boolean }>();

  /**
   * What `view` would say of each symbol's flags at `time`, one letter each: c closed, o open,
   * s open and stale. Cheaper than the views when only a change of flags matters.
   */
  flags(symbols: readonly string[], time = this.options.now()): string {
    let out = '';
    for (const symbol of symbols) {
      if (!this.isOpen(symbol, time)) out += 'c';
      else {
        const q = this.quotes.get(symbol);
        out += q === undefined || time - q.time > this.options.staleAfterMs || this.relayQuiet(time) ? 's' : 'o';
      }
    }
    return out;
  }

  isStale(symbol: string, time = this.options.now()): boolean {
    const q = this.quotes.get(symbol);
    return this.isOpen(symbol, time) && (q === undefined || time - q.time > this.options.staleAfterMs || this.relayQuiet(time));
  }

  /** The quote as clients see it, with its open and stale flags as of now. */
  view(symbol: string, time = this.options.now()): Quote {
    const q = this.quotes.get(symbol);
    // The session schedule is evaluated once (isStale would evaluate it again).
    const open = this.isOpen(symbol, time);
    return { symbol, bid: q?.bid ?? null, ask: q?.ask ?? null, time: q?.time ?? null, stale: open && (q === undefined || time - q.time > this.options.staleAfterMs || this.relayQuiet(time)), open };
  }

  onQuote(listener: QuoteListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}
