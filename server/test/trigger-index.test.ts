import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { OrderIndex, TrailIndex, TriggerIndex } from '../src/trading/trigger-index';

/**
 * The engine's per-symbol heaps of levels (trading/trigger-index.ts), checked against a plain list:
 * a price fires exactly the levels it reaches that are set now — not those moved, removed, or set
 * before an id was removed and set again — however many moves left stale entries behind and
 * however often those were compacted away.
 */
describe('trigger indexes', () => {
  test('SL/TP: after any sequence of sets, stop moves and removes, a price fires exactly the live levels it reaches, once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('set' as const), id: fc.integer({ min: 1, max: 30 }), side: fc.constantFrom('buy' as const, 'sell' as const), sl: fc.integer({ min: 0, max: 100 }), tp: fc.integer({ min: 0, max: 100 }) }),
            // A trailing stop's move: the stop loss alone, on a position set before (its side and take profit kept).
            fc.record({ op: fc.constant('stop' as const), id: fc.integer({ min: 1, max: 30 }), sl: fc.integer({ min: 0, max: 100 }) }),
            fc.record({ op: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 30 }) }),
          ),
          { maxLength: 12_000 },
        ),
        fc.integer({ min: 0, max: 100 }),
        (ops, price) => {
          const index = new TriggerIndex();
          const live = new Map<number, { side: 'buy' | 'sell'; sl: number; tp: number }>();
          for (const o of ops) {
            if (o.op === 'set') {
              index.set(o.id, 'X', o.side, o.sl, o.tp);
              live.set(o.id, o);
            } else if (o.op === 'stop') {
              const held = live.get(o.id);
              if (!held) continue;
              index.setStop(o.id, 'X', held.side, o.sl);
              live.set(o.id, { ...held, sl: o.sl });
            } else {
              index.remove(o.id);
              live.delete(o.id);
            }
          }
          const fired = index.fire('X', price, price).map((f) => `${f.positionId}:${f.kind}`).sort();
          const expected: string[] = [];
          for (const [id, l] of live) {
            if (l.sl !== 0 && (l.side === 'buy' ? price <= l.sl : price >= l.sl)) expected.push(`${id}:sl`);
            if (l.tp !== 0 && (l.side === 'buy' ? price >= l.tp : price <= l.tp)) expected.push(`${id}:tp`);
          }
          assert.deepEqual(fired, expected.sort());
          assert.deepEqual(index.fire('X', price, price), [], 'once');
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a stop loss moved 100,000 times (a trailing stop) keeps its take profit live and fires only at its last level', () => {
    const index = new TriggerIndex();
    index.set(5, 'X', 'buy', 10, 500);
    for (let k = 11; k <= 100_010; k++) index.setStop(5, 'X', 'buy', k / 1000);
    assert.deepEqual(index.fire('X', 100.011, 100.011), [], 'above the last stop, below the take profit');
    assert.deepEqual(index.fire('X', 500, 500), [{ positionId: 5, kind: 'tp' }]);
    index.setStop(5, 'X', 'buy', 99);
    assert.deepEqual(index.fire('X', 98, 98), [{ positionId: 5, kind: 'sl' }]);
  });

  test('a trailing level moved 100,000 times stays one live entry: stale ones are compacted, and the price fires only the last', () => {
    const trails = new TrailIndex();
    for (let k = 1; k <= 100_000; k++) trails.set(7, 'X', 'buy', k);
    trails.set(8, 'X', 'sell', 50);
    assert.deepEqual(trails.fire('X', 99_999, 60), [], 'below the last level of 7, above 8');
    assert.deepEqual(trails.fire('X', 100_000, 50).sort(), [7, 8]);
    const orders = new OrderIndex();
    orders.set(1, 'X', 'bid>=', 10);
    orders.remove(1);
    // Set again after a remove: its old entry must not come back to life.
    orders.set(1, 'X', 'bid>=', 20);
    assert.deepEqual(orders.fire('X', 15, 15), []);
    assert.deepEqual(orders.fire('X', 20, 20), [1]);
  });
});
