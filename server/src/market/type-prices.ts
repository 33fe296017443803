import type { Quote } from '@tradeport/contracts';
import { markupAbove as above, markupBelow as below, roundPrice, type Instrument } from '../domain/instruments';
import type { BookQuote } from './types';

/** Each account type's own spread markups, in points by symbol (docs/design.md#spread-markup). */
export type TypeMarkups = ReadonlyMap<number, ReadonlyMap<string, number>>;


/**
 * A bid and ask made with the catalogue's markup, made again with `points` instead: the raw
 * price is what the catalogue's markup was added to, so the type's is added to the same. Null
 * when the bid would not stay positive (a markup larger than the price).
 */
export function repriced(bid: number, ask: number, instrument: Pick<Instrument, 'spreadMarkup' | 'point' | 'digits'>, points: number): { bid: number; ask: number } | null {
  const { spreadMarkup, point, digits } = instrument;
  const b = roundPrice(bid + (below(spreadMarkup) - below(points)) * point, digits);
  const a = roundPrice(ask + (above(points) - above(spreadMarkup)) * point, digits);
  return b > 0 && a >= b ? { bid: b, ask: a } : null;
}

/**
 * The prices each account type trades at: the quote book's (made with the catalogue's markup)
 * wherever a type sets no markup of its own, and the same raw prices with the type's markup where
 * it does. The engine fills, triggers, values and stops out at these, and the stream sends each
 * connection its account's, so a trader sees the price they trade at.
 *
 * A type's quote of a symbol is made again only when the book's quote object changes, and is the
 * same object until then: a reader that keeps a figure while the quote object is unchanged (the
 * engine's `Valuations`) may keep it for a type's quote too.
 */
export class TypePrices {
  private markups: TypeMarkups = new Map();
  /** For each symbol, the types that set a markup of their own on it. */
  private bySymbol = new Map<string, readonly number[]>();
  private readonly made = new Map<string, { from: BookQuote; quote: BookQuote | undefined }>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly book: (symbol: string) => BookQuote | undefined,
    private readonly instrument: (symbol: string) => Instrument | undefined,
  ) {}

  /** Takes the types' markups (read from the database at start, and again whenever a type is saved). */
  set(markups: TypeMarkups): void {
    this.markups = markups;
    const bySymbol = new Map<string, number[]>();
    for (const [typeId, symbols] of markups) {
      for (const symbol of symbols.keys()) {
        const list = bySymbol.get(symbol) ?? [];
        list.push(typeId);
        bySymbol.set(symbol, list);
      }
    }
    this.bySymbol = bySymbol;
    this.made.clear();
    for (const listener of this.listeners) listener();
  }

  /** Hears each change of the types' markups (the stream sends its clients their prices again). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether any type sets a markup of its own (if none does, every type trades at the book's prices). */
  get any(): boolean {
    return this.bySymbol.size > 0;
  }

  /** The type's own markup on `symbol` in points, or undefined: the catalogue's. */
  markupOf(typeId: number | undefined, symbol: string): number | undefined {
    return typeId === undefined ? undefined : this.markups.get(typeId)?.get(symbol);
  }

  /** The types with a markup of their own on `symbol` (the others trade at the book's prices). */
  typesPricing(symbol: string): readonly number[] {
    return this.bySymbol.get(symbol) ?? NONE;
  }

  /**
   * The key of the prices an account of this type trades `symbol` at: the symbol itself for the
   * book's, `symbol#type` for a type's own. Indexes of levels keyed by it are reached by its ticks.
   */
  keyOf(typeId: number | undefined, symbol: string): string {
    return this.markupOf(typeId, symbol) === undefined ? symbol : `${symbol}#${typeId}`;
  }

  /** The quote an account of this type trades `symbol` at now (undefined: none, or not a usable one). */
  quote(typeId: number | undefined, symbol: string): BookQuote | undefined {
    const q = this.book(symbol);
    const points = this.markupOf(typeId, symbol);
    if (points === undefined || q === undefined) return q;
    const key = `${symbol}#${typeId}`;
    const kept = this.made.get(key);
    if (kept?.from === q) return kept.quote;
    const instrument = this.instrument(symbol);
    const p = instrument ? repriced(q.bid, q.ask, instrument, points) : null;
    const quote = p ? { symbol: q.symbol, bid: p.bid, ask: p.ask, time: q.time, markup: points } : undefined;
    this.made.set(key, { from: q, quote });
    return quote;
  }

  /** A quote as clients see it (`QuoteBook.view`), at this type's prices. */
  view(typeId: number | undefined, view: Quote): Quote {
    const points = this.markupOf(typeId, view.symbol);
    if (points === undefined || view.bid === null || view.ask === null) return view;
    const instrument = this.instrument(view.symbol);
    const p = instrument ? repriced(view.bid, view.ask, instrument, points) : null;
    return { ...view, bid: p?.bid ?? null, ask: p?.ask ?? null };
  }
}

const NONE: readonly number[] = [];
