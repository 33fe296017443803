import type { MARGIN_BANDS } from '@tradeport/contracts';
import { closePrice, Dec, notionalUsd, type PriceLookup } from '@tradeport/trading-math';
import type Decimal from 'decimal.js';
import type { Instrument } from '../domain/instruments';
import type { OpenPosition } from './types';

/**
 * The broker's exposure (docs/design.md#exposure), from the open positions the engine holds: the
 * net position per instrument in lots and in USD, and the band of each account's margin level.
 * Pure: the caller gives the positions, the catalogue, the prices and each position's profit.
 */

/**
 * One instrument's open positions, summed. USD figures are null while any of them cannot be valued
 * (they share its quote and rates, so then none can); `unvalued` counts them all.
 */
export interface InstrumentExposure {
  symbol: string;
  group: string;
  positions: number;
  longLots: Decimal;
  shortLots: Decimal;
  longUsd: Decimal | null;
  shortUsd: Decimal | null;
  /** The traders' floating profit with swaps, in USD. */
  floating: Decimal | null;
  unvalued: number;
}

/**
 * The positions summed by instrument, in symbol order. A position's notional is its margin at
 * leverage 1 now: V × C in the base currency (Forex), or V × C × the price it would close at (bid
 * for a Buy, ask for a Sell) in the quote currency (CFD), converted to USD as margins are.
 */
export function exposureByInstrument(positions: Iterable<OpenPosition>, instrumentOf: (symbol: string) => Instrument | undefined, prices: PriceLookup, profit: (p: OpenPosition) => Decimal | null): InstrumentExposure[] {
  const rows = new Map<string, InstrumentExposure>();
  for (const p of positions) {
    const instrument = instrumentOf(p.symbol);
    let row = rows.get(p.symbol);
    if (!row) {
      row = { symbol: p.symbol, group: instrument?.group ?? '', positions: 0, longLots: new Dec(0), shortLots: new Dec(0), longUsd: new Dec(0), shortUsd: new Dec(0), floating: new Dec(0), unvalued: 0 };
      rows.set(p.symbol, row);
    }
    row.positions += 1;
    if (p.side === 'buy') row.longLots = row.longLots.plus(p.volume);
    else row.shortLots = row.shortLots.plus(p.volume);
    const quote = prices(p.symbol);
    const notional = instrument && quote ? notionalUsd(p.volume, closePrice(p.side, quote), instrument, prices) : null;
    const floating = profit(p);
    if (notional === null || floating === null) {
      row.unvalued += 1;
      row.longUsd = row.shortUsd = row.floating = null;
      continue;
    }
    if (row.longUsd === null || row.shortUsd === null || row.floating === null) continue;
    if (p.side === 'buy') row.longUsd = row.longUsd.plus(notional);
    else row.shortUsd = row.shortUsd.plus(notional);
    row.floating = row.floating.plus(floating).plus(new Dec(p.swapCents).div(100));
  }
  for (const row of rows.values()) if (row.unvalued > 0) row.unvalued = row.positions;
  return [...rows.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

export type MarginBand = (typeof MARGIN_BANDS)[number];

/** How far above its margin call an account still counts as near it: below this × the margin-call level. */
export const NEAR_MARGIN_CALL_FACTOR = 1.5;

/** The band of an account holding margin, against its own type's levels (percent). */
export function marginBand(level: Decimal, marginCallLevel: number, stopOutLevel: number): MarginBand {
  if (level.lte(stopOutLevel)) return 'stop-out';
  if (level.lte(marginCallLevel)) return 'margin-call';
  if (level.lt(marginCallLevel * NEAR_MARGIN_CALL_FACTOR)) return 'near';
  return 'healthy';
}

/**
 * The `n` entries with the largest floating profit (positive only, largest first) and the `n`
 * with the largest floating loss (negative only, deepest first); ties by account id.
 */
export function largestFloating<T extends { accountId: number; floating: Decimal }>(accounts: readonly T[], n: number): { profit: T[]; loss: T[] } {
  const ranked = (keep: (f: Decimal) => boolean, order: 1 | -1) =>
    accounts
      .filter((a) => keep(a.floating))
      .sort((a, b) => order * a.floating.comparedTo(b.floating) || a.accountId - b.accountId)
      .slice(0, n);
  return { profit: ranked((f) => f.gt(0), -1), loss: ranked((f) => f.lt(0), 1) };
}
