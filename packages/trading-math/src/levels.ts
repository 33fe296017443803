import type { Prices, Side } from './types';

/* Trailing stops and price alerts: levels in whole points that follow or wait for the price (re-exported by index.ts). */

/**
 * A trailing stop (docs/design.md#trailing-stops), in whole points of the instrument: the stop
 * follows the price at `distance` points, once the position is `activation` points in profit (0:
 * at once), and moves only in steps of at least `step` points, only toward profit.
 */
export interface Trailing {
  distance: number;
  activation: number;
  step: number;
}

/** The largest distance, activation or step a trailing stop may have, in points. */
export const TRAIL_MAX_POINTS = 1_000_000;

/** Why these trailing-stop settings cannot be used (null when they can): whole points, in range. */
export function trailingProblem(t: Trailing): string | null {
  const whole = (v: number, min: number) => Number.isSafeInteger(v) && v >= min && v <= TRAIL_MAX_POINTS;
  if (!whole(t.distance, 1)) return `The trailing distance must be a whole number of points from 1 to ${TRAIL_MAX_POINTS}.`;
  if (!whole(t.activation, 0)) return `The trailing activation must be a whole number of points from 0 to ${TRAIL_MAX_POINTS}.`;
  if (!whole(t.step, 1)) return `The trailing step must be a whole number of points from 1 to ${TRAIL_MAX_POINTS}.`;
  return null;
}

/** A price in whole points of an instrument with `digits` decimals, and back. */
export const toPoints = (price: number, digits: number): number => Math.round(price * 10 ** digits);
// An integer divided by an exact power of ten is the double nearest the decimal it names: the very
// number its text at `digits` decimals parses to, without making the text.
export const fromPoints = (points: number, digits: number): number => points / 10 ** digits;

/**
 * The stop loss a trailing stop sets at these prices, or null when it stays where it is. A Buy
 * trails the bid: once the bid is `activation` points above the open, the stop goes to `distance`
 * points under the bid, if that is at least `step` points above the stop it has (any level, when it
 * has none). A Sell trails the ask the other way. The stop never moves back.
 */
export function trailedStop(side: Side, open: number, stopLoss: number, t: Trailing, p: Prices, digits: number): number | null {
  const openPts = toPoints(open, digits);
  const slPts = stopLoss === 0 ? null : toPoints(stopLoss, digits);
  if (side === 'buy') {
    const bid = toPoints(p.bid, digits);
    if (t.activation > 0 && bid - openPts < t.activation) return null;
    const to = bid - t.distance;
    if (to <= 0 || (slPts !== null && to - slPts < t.step)) return null;
    return fromPoints(to, digits);
  }
  const ask = toPoints(p.ask, digits);
  if (t.activation > 0 && openPts - ask < t.activation) return null;
  const to = ask + t.distance;
  if (slPts !== null && slPts - to < t.step) return null;
  return fromPoints(to, digits);
}

/**
 * The price at which `trailedStop` next moves the stop: a Buy's when the bid is at or above it, a
 * Sell's when the ask is at or below it (0 and Infinity: at any price). The engine indexes it, so a
 * tick costs in proportion to the stops it moves.
 */
export function trailTrigger(side: Side, open: number, stopLoss: number, t: Trailing, digits: number): number {
  const openPts = toPoints(open, digits);
  if (side === 'buy') {
    let at = 1 + t.distance;
    if (t.activation > 0) at = Math.max(at, openPts + t.activation);
    if (stopLoss !== 0) at = Math.max(at, toPoints(stopLoss, digits) + t.distance + t.step);
    return fromPoints(at, digits);
  }
  let at = Number.POSITIVE_INFINITY;
  if (t.activation > 0) at = openPts - t.activation;
  if (stopLoss !== 0) at = Math.min(at, toPoints(stopLoss, digits) - t.distance - t.step);
  return at === Number.POSITIVE_INFINITY ? at : fromPoints(at, digits);
}

/**
 * The price, in points, at which a trailing stop was last set (a Buy's bid, a Sell's ask: the stop
 * lies `distance` points from it), when that price alone decides its next move, `step` points on
 * (as `trailTrigger` finds); null when the activation, a stop set by hand far from it, or no stop
 * decides it. Trailing stops of one side and step set at the same price move together from then on.
 */
export function trailReference(side: Side, open: number, stopLoss: number, t: Trailing, digits: number): number | null {
  if (stopLoss === 0) return null;
  const ref = side === 'buy' ? toPoints(stopLoss, digits) + t.distance : toPoints(stopLoss, digits) - t.distance;
  const next = toPoints(trailTrigger(side, open, stopLoss, t, digits), digits);
  return next === (side === 'buy' ? ref + t.step : ref - t.step) ? ref : null;
}

/** A price alert's side of the quote and the way it waits for it (docs/design.md#price-alerts). */
export type AlertPrice = 'bid' | 'ask';
export type AlertDirection = 'above' | 'below';

/** The condition a price alert waits for: its side of the quote at or above, or at or below, its level. */
export const alertCondition = (price: AlertPrice, direction: AlertDirection): 'ask<=' | 'ask>=' | 'bid<=' | 'bid>=' => `${price}${direction === 'above' ? '>=' : '<='}`;

/**
 * Why an alert cannot wait for `level` now (null when it can): it would fire at once, the price
 * being there already. An alert "above" waits for a price above today's, "below" for one under it.
 */
export function alertProblem(price: AlertPrice, direction: AlertDirection, level: number, p: Prices): string | null {
  const now = price === 'bid' ? p.bid : p.ask;
  if (direction === 'above' && !(level > now)) return `The ${price} is ${now} already: an alert above must be set above it.`;
  if (direction === 'below' && !(level < now)) return `The ${price} is ${now} already: an alert below must be set below it.`;
  return null;
}
