import type Decimal from 'decimal.js';
import { marginUsd, profitUsd, type PriceLookup } from '@tradeport/trading-math';
import type { Instrument } from '../domain/instruments';
import type { BookQuote } from '../market/types';
import { formatCents, roundToCents, type Cents } from '../domain/money';
import type { OpenPosition } from './types';

/** One position's profit and margin, with the quotes they were computed from. */
interface Valuation {
  /** The volume valued (a position's volume is fixed today; a partial close would change it). */
  volume: number;
  /** The quote of the position's own symbol it was valued at (its account type's prices). */
  own: unknown;
  /** Symbol, then the quote object it had (undefined: none), for every price looked up. */
  reads: unknown[];
  profit: Decimal | null;
  /** The profit rounded to cents, as the API writes it (undefined: not yet asked for). */
  profitCents: Cents | null | undefined;
  /** The leverage and the instrument's margin rate `margin` is for (NaN: not computed yet). */
  leverage: number;
  marginRate: number;
  margin: Decimal | null;
}

/**
 * The cache of the trading reads, and the only one: each open position's profit and margin in USD
 * (computed by `@tradeport/trading-math`, as orders and the terminal compute them).
 *
 * The rule: a valuation is given again while every quote it looked up — the position's own symbol
 * at its account type's prices, and the conversion rates to USD — is the very object the quote
 * book (or `TypePrices`, which makes a type's quote again only when the book's changes) holds now,
 * and the position's volume (and, for the margin, the account's leverage and the instrument's
 * margin rate) is the same. The quote
 * book replaces a symbol's quote object on every change and never edits one, so an unchanged object
 * is an unchanged price. Nothing has to be told to drop it: a tick makes the next read compute again.
 *
 * Why it is worth its keep: the back office's open-trades list totals the profit of every open
 * position on each request, and decimal.js takes ~20 µs a position (docs/benchmarks.md, reads);
 * between two ticks of a symbol, every read after the first costs a few map lookups instead.
 */
export class Valuations {
  private readonly kept = new WeakMap<OpenPosition, Valuation>();

  constructor(
    /** The book's prices: conversion rates to USD. */
    private readonly quote: PriceLookup,
    private readonly instrument: (symbol: string) => Instrument | undefined,
    /** The quote a position is valued at: its account's prices for its symbol. */
    private readonly own: (p: OpenPosition) => BookQuote | undefined,
  ) {}

  /** Floating profit in USD at the book's prices, or null without a usable quote or conversion rate. */
  profit(p: OpenPosition): Decimal | null {
    return this.valuation(p).profit;
  }

  /** The profit in USD rounded to cents, as the API shows it, or null. */
  profitCents(p: OpenPosition): Cents | null {
    const v = this.valuation(p);
    if (v.profitCents === undefined) v.profitCents = v.profit === null ? null : roundToCents(v.profit);
    return v.profitCents;
  }

  /** The profit as the API shows it: USD rounded to cents ("12.34"), or null. */
  profitText(p: OpenPosition): string | null {
    const cents = this.profitCents(p);
    return cents === null ? null : formatCents(cents);
  }

  /** The margin the position holds at `leverage`, in USD, or null without a conversion rate. */
  margin(p: OpenPosition, leverage: number): Decimal | null {
    const v = this.valuation(p);
    const instrument = this.instrument(p.symbol);
    // The back office may change the margin rate at any time (docs/design.md#margin).
    if (v.leverage !== leverage || v.marginRate !== instrument?.marginRate) {
      v.margin = instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.noting(v.reads)) : null;
      v.leverage = leverage;
      v.marginRate = instrument?.marginRate ?? Number.NaN;
    }
    return v.margin;
  }

  private valuation(p: OpenPosition): Valuation {
    const kept = this.kept.get(p);
    const own = this.own(p);
    if (kept !== undefined && kept.volume === p.volume && kept.own === own && this.unchanged(kept.reads)) return kept;
    const reads: unknown[] = [];
    const prices = this.noting(reads);
    const instrument = this.instrument(p.symbol);
    const profit = own && instrument ? profitUsd(p.side, p.volume, p.openPrice, own, instrument, prices) : null;
    const v: Valuation = { volume: p.volume, own, reads, profit, profitCents: undefined, leverage: Number.NaN, marginRate: Number.NaN, margin: null };
    this.kept.set(p, v);
    return v;
  }

  /** The book's prices, noting each quote looked up in `reads`. */
  private noting(reads: unknown[]): PriceLookup {
    return (symbol) => {
      const q = this.quote(symbol);
      reads.push(symbol, q);
      return q;
    };
  }

  private unchanged(reads: readonly unknown[]): boolean {
    for (let i = 0; i < reads.length; i += 2) if (this.quote(reads[i] as string) !== reads[i + 1]) return false;
    return true;
  }
}
