import type { Instrument } from '../domain/instruments';
import type { Cents } from '../domain/money';
import { positionLeverage, type LeverageLimits, type PriceLookup, type Side } from '@tradeport/trading-math';

/**
 * The margin sweep's first pass: an account's margin level in plain binary floating point, from
 * cached balance, credit and leverage and the positions held in memory. It decides only whether
 * the account needs the exact check (decimal arithmetic, balance read from the database); every
 * margin call and stop-out is decided by that exact check. The float result is within about 1e-12
 * of the exact level, far inside the band the sweep leaves (`SCREEN_BAND`).
 */

/** Relative headroom above the margin-call level within which an account is always checked exactly. */
export const SCREEN_BAND = 0.02;

export interface CachedAccount {
  balanceCents: Cents;
  creditCents: Cents;
  leverage: number;
  /** The account's margin-call level (its type's, else the installation's). */
  marginCallLevel: number;
}

export interface ScreenedPosition {
  symbol: string;
  side: Side;
  volume: number;
  openPrice: number;
  swapCents: Cents;
}

/**
 * USD conversion rates as floats, memoised for one sweep: `currency`USD at its bid, or 1 / the bid
 * of USD`currency` (the rule of `toUsd` in trading-math.ts). Null when no quote converts it.
 */
export class UsdRates {
  private readonly memo = new Map<string, number | null>();

  constructor(private readonly prices: PriceLookup) {}

  rate(currency: string): number | null {
    if (currency === 'USD') return 1;
    let r = this.memo.get(currency);
    if (r !== undefined) return r;
    const direct = this.prices(`${currency}USD`);
    const inverse = direct && direct.bid > 0 ? undefined : this.prices(`USD${currency}`);
    r = direct && direct.bid > 0 ? direct.bid : inverse && inverse.bid > 0 ? 1 / inverse.bid : null;
    this.memo.set(currency, r);
    return r;
  }
}

/** What the screen needs of one symbol, worked out once per sweep. */
interface SymbolFactors {
  bid: number;
  ask: number;
  contractSize: number;
  /** Quote currency → USD. */
  quoteRate: number;
  /** Margin currency → USD: the base currency for Forex, the quote currency for CFDs. */
  marginCurrencyRate: number;
  /** CFD margin is on the notional at the open price; Forex margin on the units. */
  cfd: boolean;
  /** Its symbol and group, which leverage limits name. */
  instrument: { symbol: string; group: string; marginRate: number };
}

/** Per-symbol prices and conversion rates for one sweep, each worked out on first use. */
export class SweepPrices {
  private readonly memo = new Map<string, SymbolFactors | null>();
  private readonly rates: UsdRates;

  constructor(
    private readonly instrument: (symbol: string) => Instrument | undefined,
    private readonly prices: PriceLookup,
    /** The quote an account type trades a symbol at (the book's where it sets no markup of its own). */
    private readonly typed: (typeId: number | undefined, symbol: string) => { bid: number; ask: number } | undefined = (_, symbol) => prices(symbol),
    /** The key of a type's prices of a symbol (`TypePrices.keyOf`): types trading at the same prices share one memo. */
    private readonly keyOf: (typeId: number | undefined, symbol: string) => string = (_, symbol) => symbol,
  ) {
    this.rates = new UsdRates(prices);
  }

  factors(symbol: string, typeId?: number): SymbolFactors | null {
    const key = this.keyOf(typeId, symbol);
    let f = this.memo.get(key);
    if (f !== undefined) return f;
    const i = this.instrument(symbol);
    const q = this.typed(typeId, symbol);
    const quoteRate = i ? this.rates.rate(i.quote) : null;
    const marginCurrencyRate = i ? (i.calcMode === 'forex' ? this.rates.rate(i.base) : quoteRate) : null;
    f = i && q && quoteRate !== null && marginCurrencyRate !== null ? { bid: q.bid, ask: q.ask, contractSize: i.contractSize, quoteRate, marginCurrencyRate, cfd: i.calcMode === 'cfd', instrument: i } : null;
    this.memo.set(key, f);
    return f;
  }
}

export type Screened =
  /** No open margin: nothing to check. */
  | { kind: 'no-margin' }
  /** The approximate margin level, in percent. */
  | { kind: 'level'; level: number }
  /** A price or rate is missing: only the exact check can tell. */
  | { kind: 'unknown' };

/** The approximate margin level of an account holding `positions`. */
export function screenAccount(account: Pick<CachedAccount, 'balanceCents' | 'creditCents' | 'leverage'>, positions: Iterable<ScreenedPosition>, prices: SweepPrices, limits: LeverageLimits | null = null, typeId?: number): Screened {
  let floating = 0;
  let margin = 0;
  for (const p of positions) {
    const f = prices.factors(p.symbol, typeId);
    if (!f) return { kind: 'unknown' };
    const units = p.volume * f.contractSize;
    floating += (p.side === 'buy' ? f.bid - p.openPrice : p.openPrice - f.ask) * units * f.quoteRate + p.swapCents / 100;
    // At the account's leverage, at most its type's limit on the instrument.
    margin += ((f.cfd ? units * p.openPrice : units) * f.marginCurrencyRate * f.instrument.marginRate) / (limits ? positionLeverage(account.leverage, limits, f.instrument) : account.leverage);
  }
  if (margin === 0) return { kind: 'no-margin' };
  const equity = (account.balanceCents + account.creditCents) / 100 + floating;
  return { kind: 'level', level: (equity * 100) / margin };
}

/** Whether a screened account is far enough above the margin-call level to skip the exact check. */
export function clearlyAbove(screened: Screened, marginCallLevel: number): boolean {
  if (screened.kind === 'no-margin') return true;
  if (screened.kind === 'unknown') return false;
  return screened.level > marginCallLevel * (1 + SCREEN_BAND) + 1e-6;
}
