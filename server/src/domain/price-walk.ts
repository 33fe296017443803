import type { Random } from './random';

/**
 * The simulator's price process: a geometric random walk with a weak pull back towards the
 * instrument's reference price, so a simulated market stays plausible over months of running.
 */
const YEAR_MS = 365.25 * 24 * 3600_000;
/** Strength of the pull towards the reference price, per year. */
const REVERSION_PER_YEAR = 0.8;

/** The price `dtMs` after `price`; `dtMs` may be negative to walk back in time (history). */
export function walk(price: number, reference: number, volatility: number, dtMs: number, rng: Random): number {
  const years = Math.abs(dtMs) / YEAR_MS;
  const sigma = volatility * Math.sqrt(years);
  const pull = REVERSION_PER_YEAR * years * Math.log(reference / price);
  const step = sigma * rng.normal() + pull;
  return price * Math.exp(step);
}

/** A spread around its typical size (in points): usually near it, now and then twice as wide. */
export function spreadPoints(typical: number, rng: Random): number {
  const widen = rng.next() < 0.03 ? 2 : 1;
  return Math.max(1, Math.round(typical * (0.8 + 0.4 * rng.next()) * widen));
}
