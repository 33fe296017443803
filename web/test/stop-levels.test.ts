import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stopsProblem } from '@tradeport/trading-math';
import { FIRST_PRESS_POINTS, firstPressPoints, nudgeStopLevel, pointsBetween } from '../src/terminal/stop-levels';

const quote = { bid: 1.08, ask: 1.08012, digits: 5 };

describe('stop-level stepper', () => {
  it('starts a Buy stop loss ten spreads below the bid and a Buy take profit ten spreads above it', () => {
    // The spread is 12 points: the first press lands 120 points away, not one pip.
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0, direction: 1, ...quote }), 1.0788);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 0, direction: -1, ...quote }), 1.0812);
  });

  it('starts a Sell stop loss ten spreads above the ask and a Sell take profit ten spreads below it', () => {
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'sell', current: 0, direction: -1, ...quote }), 1.08132);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'sell', current: 0, direction: 1, ...quote }), 1.07892);
  });

  it('starts at least ten points away when the spread is tight, and from the entry price for a pending order', () => {
    assert.equal(firstPressPoints(1.08, 1.08, 5), FIRST_PRESS_POINTS);
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0, direction: 1, bid: 1.08, ask: 1.08, digits: 5 }), 1.0799);
    // A Buy Limit at 1.07500: its levels sit around that price, ten spreads away.
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0, direction: 1, ...quote, reference: 1.075 }), 1.0738);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 0, direction: 1, ...quote, reference: 1.075 }), 1.0762);
    // Gold, 2 digits, a 30-point spread: 3.00 away.
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'sell', current: 0, direction: 1, bid: 2000.2, ask: 2000.5, digits: 2 }), 2003.5);
  });

  it('steps a set level by exactly one point in the pressed direction, in the instrument digits', () => {
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 1.0799, direction: 1, ...quote }), 1.07991);
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 1.0799, direction: -1, ...quote }), 1.07989);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'sell', current: 151.234, direction: 1, bid: 151.2, ask: 151.21, digits: 3 }), 151.235);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 2050.5, direction: -1, bid: 2000, ask: 2000.3, digits: 2 }), 2050.49);
  });

  it('never goes below zero and keeps a missing price unset', () => {
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0, direction: 1, bid: 0.00005, ask: 0.00006, digits: 5 }), 0);
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0.00001, direction: -1, ...quote }), 0);
    // A Sell take profit ten spreads (130 points) below an ask of 130 would be exactly zero: unset.
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'sell', current: 0, direction: 1, bid: 117, ask: 130, digits: 0 }), 0);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 0, direction: 1, bid: Number.NaN, ask: Number.NaN, digits: 5 }), 0);
  });

  it('lands the first press where the server accepts it, ten spreads (at least ten points) away, for any price and digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 100, max: 10_000_000 }), fc.integer({ min: 0, max: 50 }), fc.constantFrom('buy' as const, 'sell' as const), fc.constantFrom('sl' as const, 'tp' as const), (digits, bidPoints, spread, side, kind) => {
        const scale = 10 ** digits;
        const bid = bidPoints / scale;
        const ask = (bidPoints + spread) / scale;
        const level = nudgeStopLevel({ kind, side, current: 0, direction: 1, bid, ask, digits });
        const reference = side === 'buy' ? bid : ask;
        const distance = Math.max(FIRST_PRESS_POINTS, 10 * spread);
        // A level under the price (a Buy's stop loss, a Sell's take profit) that would reach zero
        // or go below it stays unset (0).
        if (level === 0) {
          assert.ok(Math.round(reference * scale) - distance <= 0);
          return;
        }
        assert.equal(pointsBetween(level, reference, digits), distance);
        assert.equal(level, Number(level.toFixed(digits)));
        assert.equal(stopsProblem(side, kind === 'sl' ? level : 0, kind === 'tp' ? level : 0, { bid, ask }), null);
      }),
    );
  });

  it('round-trips a step up and a step down to the same price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 2, max: 10_000_000 }), (digits, points) => {
        const current = points / 10 ** digits;
        const up = nudgeStopLevel({ kind: 'sl', side: 'buy', current, direction: 1, bid: 1, ask: 1, digits });
        assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: up, direction: -1, bid: 1, ask: 1, digits }), current);
      }),
    );
  });
});
