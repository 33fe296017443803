/**
 * The stop-loss / take-profit steppers' arithmetic (docs/design.md#stop-loss-and-take-profit): 0 means "not set"; the first
 * press starts a few points away from the price on the side where the level is valid for the
 * position's direction (Buy: SL below bid, TP above bid; Sell: SL above ask, TP below ask), later
 * presses move one point (10^-digits). Prices are counted in whole points so no float drift creeps in.
 */

export type StopKind = 'sl' | 'tp';
export type TradeSide = 'buy' | 'sell';

/** How far from the price the first press lands, in points. */
export const FIRST_PRESS_POINTS = 10;

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

export function nudgeStopLevel(args: { kind: StopKind; side: TradeSide; current: number; direction: 1 | -1; bid: number; ask: number; digits: number }): number {
  const { kind, side, current, direction, bid, ask, digits } = args;
  const scale = 10 ** digits;
  if (!(current > 0)) {
    const reference = referencePrice(side, bid, ask);
    // No price to start from: the level stays unset.
    if (!Number.isFinite(reference) || reference <= 0) return 0;
    const points = Math.round(reference * scale) + validSideSign(kind, side) * FIRST_PRESS_POINTS;
    return Math.max(0, points) / scale;
  }
  const points = Math.round(current * scale) + direction;
  return Math.max(0, points) / scale;
}
