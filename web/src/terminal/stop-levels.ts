/**
 * The stop-loss / take-profit steppers' arithmetic (docs/design.md#stop-loss-and-take-profit): 0 means "not set"; the first press starts a
 * sensible distance from the price on the side where the level is valid for the position's
 * direction (Buy: SL below bid, TP above bid; Sell: SL above ask, TP below ask; a pending order's
 * around its own entry price), later presses move one point (10^-digits). Prices are counted in
 * whole points so no float drift creeps in.
 */

export type StopKind = 'sl' | 'tp';
export type TradeSide = 'buy' | 'sell';

/**
 * The least distance the first press lands at, in points. The catalogue has no per-instrument stop
 * level (the server accepts a level one point from the price), so this floor stands in for one.
 */
export const FIRST_PRESS_POINTS = 10;
/** The first press lands at least this many spreads away: a level inside the spread's noise closes at once. */
export const FIRST_PRESS_SPREADS = 10;

/** A price rounded to `digits` decimals, through whole points. */
export function roundToDigits(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** +1 when the valid side lies above the reference price, -1 when below. */
export function validSideSign(kind: StopKind, side: TradeSide): 1 | -1 {
  if (side === 'buy') return kind === 'sl' ? -1 : 1;
  return kind === 'sl' ? 1 : -1;
}

/** The price a level is checked against: a Buy closes at the bid, a Sell at the ask. */
export function referencePrice(side: TradeSide, bid: number, ask: number): number {
  return side === 'buy' ? bid : ask;
}

/** Whole points between two prices (0 when either is missing). */
export function pointsBetween(a: number, b: number, digits: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return 0;
  const scale = 10 ** digits;
  return Math.abs(Math.round(a * scale) - Math.round(b * scale));
}

/**
 * How far from the price the first press lands, in whole points: ten times the current spread, and
 * never under FIRST_PRESS_POINTS (a stop level of its own where the instrument has none).
 */
export function firstPressPoints(bid: number, ask: number, digits: number, stopLevelPoints = FIRST_PRESS_POINTS): number {
  return Math.max(stopLevelPoints, FIRST_PRESS_SPREADS * pointsBetween(ask, bid, digits));
}

export interface NudgeArgs {
  kind: StopKind;
  side: TradeSide;
  /** The level now; 0 = not set. */
  current: number;
  direction: 1 | -1;
  bid: number;
  ask: number;
  digits: number;
  /** What an unset level starts from instead of the market (a pending order's entry price). */
  reference?: number;
}

export function nudgeStopLevel(args: NudgeArgs): number {
  const { kind, side, current, direction, bid, ask, digits } = args;
  const scale = 10 ** digits;
  if (!(current > 0)) {
    const reference = args.reference ?? referencePrice(side, bid, ask);
    // No price to start from: the level stays unset.
    if (!Number.isFinite(reference) || reference <= 0) return 0;
    const spread = Number.isFinite(bid) && Number.isFinite(ask) ? { bid, ask } : { bid: reference, ask: reference };
    const points = Math.round(reference * scale) + validSideSign(kind, side) * firstPressPoints(spread.bid, spread.ask, digits);
    return Math.max(0, points) / scale;
  }
  const points = Math.round(current * scale) + direction;
  return Math.max(0, points) / scale;
}
