import type { InstrumentGroup } from '@tradeport/contracts';
import type { Schedule } from './trading-sessions';

/**
 * A tradable instrument, as the catalogue defines it (docs/design.md#instruments). Prices are kept at the
 * instrument's digits; a point is 10^-digits.
 */
export interface Instrument {
  id: number;
  symbol: string;
  description: string;
  group: InstrumentGroup;
  base: string;
  quote: string;
  digits: number;
  point: number;
  contractSize: number;
  volumeMin: number;
  volumeStep: number;
  volumeMax: number;
  calcMode: 'forex' | 'cfd';
  /** The schedule as written in the catalogue, and parsed. */
  sessions: string[];
  schedule: Schedule;
  /** Points per lot per day. */
  swapLong: number;
  swapShort: number;
  /** Points added to the feed's spread (half below the bid, half above the ask). */
  spreadMarkup: number;
  /** The margin of a position is its notional at the account's leverage times this (1: as is). */
  marginRate: number;
  sim: SimProfile;
  /** The instrument's name at each real provider (e.g. binance: 'BTCUSDT', polygon: 'EUR/USD'). */
  feeds: Partial<Record<'binance' | 'polygon', string>>;
  /**
   * Set in the back office: full; close-only (positions and orders in it can be closed and
   * cancelled, no new one is accepted); disabled (not offered; never while anything is held in it).
   */
  tradingMode: InstrumentTradingMode;
}

export type InstrumentTradingMode = 'full' | 'close-only' | 'disabled';

/** How the simulated feed moves an instrument. */
export interface SimProfile {
  /** Reference price the walk starts from and is gently pulled back to. */
  price: number;
  /** Typical spread in points. */
  spread: number;
  /** Annualised volatility (0.07 = 7%). */
  volatility: number;
  ticksPerSecond: number;
}

/** Rounds a (positive) price to the instrument's digits, half up at the last digit. */
/** How a spread markup of `points` splits: the lower half below the bid, the rest (the odd point too) above the ask. */
export const markupBelow = (points: number): number => Math.floor(points / 2);
export const markupAbove = (points: number): number => points - Math.floor(points / 2);

export function roundPrice(price: number, digits: number): number {
  const factor = 10 ** digits;
  // The relative nudge absorbs binary representation error (1.005 is stored as 1.00499999…).
  return Math.round(price * factor * (1 + Number.EPSILON)) / factor;
}
