import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stopsProblem } from '@tradeport/trading-math';
import { FIRST_PRESS_POINTS, nudgeStopLevel } from '../src/terminal/stop-levels';

const quote = { bid: 1.08, ask: 1.08012, digits: 5 };

describe('stop-level stepper', () => {
  it('starts a Buy stop loss ten points below the bid and a Buy take profit ten points above it', () => {
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'buy', current: 0, direction: 1, ...quote }), 1.0799);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 0, direction: -1, ...quote }), 1.0801);
  });

  it('starts a Sell stop loss ten points above the ask and a Sell take profit ten points below it', () => {
    assert.equal(nudgeStopLevel({ kind: 'sl', side: 'sell', current: 0, direction: -1, ...quote }), 1.08022);
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'sell', current: 0, direction: 1, ...quote }), 1.08002);
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
    assert.equal(nudgeStopLevel({ kind: 'tp', side: 'buy', current: 0, direction: 1, bid: Number.NaN, ask: Number.NaN, digits: 5 }), 0);
  });

  it('lands the first press where the server accepts it, for any price and digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 100, max: 10_000_000 }), fc.integer({ min: 0, max: 50 }), fc.constantFrom('buy' as const, 'sell' as const), fc.constantFrom('sl' as const, 'tp' as const), (digits, bidPoints, spread, side, kind) => {
        const scale = 10 ** digits;
        const bid = bidPoints / scale;
        const ask = (bidPoints + spread) / scale;
        const level = nudgeStopLevel({ kind, side, current: 0, direction: 1, bid, ask, digits });
        const reference = side === 'buy' ? bid : ask;
        assert.equal(Math.round(Math.abs(level - reference) * scale), FIRST_PRESS_POINTS);
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
