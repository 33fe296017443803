import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { trailedStop, type Side, type Trailing } from '@tradeport/trading-math';
import { TrailBook } from '../src/trading/trail-book';
import { TriggerIndex } from '../src/trading/trigger-index';
import type { OpenPosition } from '../src/trading/types';

/**
 * The trailing stops' index (trading/trail-book.ts), which moves stops that trail together as one
 * cohort, checked against the rule applied to every position on every tick (`trailedStop`, then
 * the stop loss reached or not): after any sequence of ticks, opens, changes, closes and changes
 * under way, every stop is where the rule puts it, every moved stop is handed out to be written
 * once, and a tick closes exactly the positions whose stop it reaches.
 */
const DIGITS = 2;
const price = (points: number) => points / 10 ** DIGITS;

type Op =
  | { op: 'tick'; move: number; spread: number; write: boolean }
  | { op: 'open'; side: Side; stop: number; trailing: Trailing }
  | { op: 'change'; pick: number; stop: number; trailing: Trailing | null }
  | { op: 'close'; pick: number }
  | { op: 'hold'; pick: number }
  | { op: 'release'; pick: number };

const trailingArb = fc.record({ distance: fc.integer({ min: 1, max: 30 }), activation: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })), step: fc.integer({ min: 1, max: 2 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ op: fc.constant('tick' as const), move: fc.integer({ min: -6, max: 6 }), spread: fc.integer({ min: 0, max: 3 }), write: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('open' as const), side: fc.constantFrom<Side>('buy', 'sell'), stop: fc.integer({ min: -40, max: 40 }), trailing: trailingArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('change' as const), pick: fc.nat(), stop: fc.integer({ min: -40, max: 40 }), trailing: fc.option(trailingArb, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('close' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('hold' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('release' as const), pick: fc.nat() }) },
);

describe('trailing stop cohorts', () => {
  test('every stop is where the trailing rule puts it, and a tick closes exactly the positions whose stop it reaches', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 50, maxLength: 1000 }), (ops) => {
        const open = new Map<number, OpenPosition>();
        const triggers = new TriggerIndex();
        const book = new TrailBook(triggers, open);
        /** The rule's own copy of each open position: its side, open price, stop and trailing stop. */
        const model = new Map<number, { side: Side; openPrice: number; stopLoss: number; trailing: Trailing | null }>();
        /** Positions with a change under way: their stops stay. */
        const held = new Set<number>();
        /** Positions whose stop moved and was not handed out to be written since. */
        const unwritten = new Set<number>();
        let bid = 1000;
        let ask = 1001;
        let nextId = 1;
        const movable = (p: OpenPosition) => !held.has(p.id);
        const pick = (n: number) => [...open.keys()][n % Math.max(1, open.size)];
        const close = (id: number) => {
          open.delete(id);
          model.delete(id);
          held.delete(id);
          triggers.remove(id);
          book.forget(id);
        };
        for (const o of ops) {
          if (o.op === 'tick') {
            bid = Math.max(200, bid + o.move);
            ask = bid + o.spread;
            const q = { bid: price(bid), ask: price(ask) };
            book.onTick('X', q.bid, q.ask, DIGITS, movable);
            const fired = [...triggers.fire('X', q.bid, q.ask).filter((f) => f.kind === 'sl').map((f) => f.positionId), ...book.fireStops('X', q.bid, q.ask)].sort((a, b) => a - b);
            const expected: number[] = [];
            const changed: number[] = [];
            for (const [id, m] of model) {
              const before = m.stopLoss;
              if (m.trailing && !held.has(id)) m.stopLoss = trailedStop(m.side, m.openPrice, m.stopLoss, m.trailing, q, DIGITS) ?? m.stopLoss;
              if (m.stopLoss !== before) changed.push(id);
              if (m.stopLoss !== 0 && (m.side === 'buy' ? q.bid <= m.stopLoss : q.ask >= m.stopLoss)) expected.push(id);
            }
            assert.deepEqual(fired, expected, `closed at ${q.bid}/${q.ask}`);
            for (const [id, m] of model) assert.equal(open.get(id)!.stopLoss, m.stopLoss, `#${id}'s stop at ${q.bid}/${q.ask}`);
            // Every stop moved since the last write is handed out to be written, once (a closed one
            // too: the writer skips it), but not one whose owner's change writes it.
            for (const id of changed) unwritten.add(id);
            if (o.write) {
              const taken = book.takeUnwritten(Number.MAX_SAFE_INTEGER).map((p) => p.id);
              assert.deepEqual(taken.sort((a, b) => a - b), [...unwritten].sort((a, b) => a - b), 'handed out to be written');
              unwritten.clear();
            }
            for (const id of fired) close(id);
          } else if (o.op === 'open') {
            const id = nextId++;
            const at = o.side === 'buy' ? ask : bid;
            // A stop on its losing side of the price, or none.
            const stop = o.stop === 0 ? 0 : price(o.side === 'buy' ? bid - Math.abs(o.stop) : ask + Math.abs(o.stop));
            const p = { id, side: o.side, openPrice: price(at), stopLoss: stop, takeProfit: 0, trailing: o.trailing, closing: false } as OpenPosition;
            open.set(id, p);
            model.set(id, { side: o.side, openPrice: p.openPrice, stopLoss: stop, trailing: o.trailing });
            triggers.set(id, 'X', o.side, stop, 0);
            book.follow(p, 'X', DIGITS);
          } else if (o.op === 'change') {
            const id = pick(o.pick);
            if (id === undefined || held.has(id)) continue;
            const p = open.get(id)!;
            // The change writes the levels it sets: a move not written yet is not written after it.
            book.markWritten(p);
            unwritten.delete(id);
            const stop = o.stop === 0 ? 0 : price(p.side === 'buy' ? bid - Math.abs(o.stop) : ask + Math.abs(o.stop));
            p.stopLoss = stop;
            p.trailing = o.trailing;
            model.set(id, { ...model.get(id)!, stopLoss: stop, trailing: o.trailing });
            triggers.set(id, 'X', p.side, stop, 0);
            book.follow(p, 'X', DIGITS);
          } else if (o.op === 'close') {
            const id = pick(o.pick);
            if (id !== undefined) close(id);
          } else if (o.op === 'hold') {
            const id = pick(o.pick);
            if (id === undefined) continue;
            held.add(id);
            book.markWritten(open.get(id)!);
            unwritten.delete(id);
          } else {
            const id = pick(o.pick);
            if (id === undefined || !held.delete(id)) continue;
            // The change is done: its levels are indexed again, where they are.
            const p = open.get(id)!;
            triggers.set(id, 'X', p.side, p.stopLoss, 0);
            book.follow(p, 'X', DIGITS);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a trend that moves 10,000 stops of one step each tick moves them as one cohort, each to its own distance', () => {
    const open = new Map<number, OpenPosition>();
    const triggers = new TriggerIndex();
    const book = new TrailBook(triggers, open);
    for (let id = 1; id <= 10_000; id++) {
      const p = { id, side: 'buy', openPrice: 10, stopLoss: 0, takeProfit: 0, trailing: { distance: 100 + (id % 400), activation: 0, step: 5 }, closing: false } as OpenPosition;
      open.set(id, p);
      triggers.set(id, 'X', 'buy', 0, 0);
      book.follow(p, 'X', DIGITS);
    }
    /** How many stops a tick moves (each handed out once to be written). */
    const tick = (bid: number) => {
      book.onTick('X', bid, bid + 0.01, DIGITS, () => true);
      return new Set(book.takeUnwritten(Number.MAX_SAFE_INTEGER)).size;
    };
    // The first tick moves each on its own (none has moved yet); from then on they move together.
    assert.equal(tick(10), 10_000);
    for (let k = 1; k <= 50; k++) assert.equal(tick(10 + k * 0.05), 10_000);
    assert.equal(open.get(7)!.stopLoss, 12.5 - 1.07);
    assert.equal(open.get(400)!.stopLoss, 12.5 - 1);
    // The price falls 1.05: the stops 1.00 to 1.05 behind close, nearest first, and no other.
    const fired = book.fireStops('X', 11.45, 11.46);
    assert.deepEqual(fired.sort((a, b) => a - b), [...open.keys()].filter((id) => 100 + (id % 400) <= 105).sort((a, b) => a - b));
  });
});
