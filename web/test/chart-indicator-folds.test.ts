import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHART_INDICATORS, type ChartIndicatorName } from '@tradeport/contracts/chart-names';
import type { KLineData } from 'klinecharts';
import { bollFold, emaFold, macdFold, maFold, resumable, rsiFold, volFold, type Fold } from '../src/chart/indicator-folds';
import { foldOf } from '../src/chart/more-indicator-folds';
import { cciFold, wrFold } from '../src/chart/oscillator-folds';
import { obvFold, pvtFold } from '../src/chart/volume-folds';

const candle = (close: number, i: number, volume = 100): KLineData => ({ timestamp: i * 3_600_000, open: close - 0.5, high: close + 1, low: close - 1, close, volume });
const candles = (closes: number[]) => closes.map((c, i) => candle(c, i));
/** The whole fold, from scratch. */
const full = <S>(fold: Fold<S>, data: KLineData[]) => resumable(fold)(data).map((v) => ({ ...v }));

describe('indicators as folds resumed on a tick', () => {
  it('computes the moving average, the EMA seeded with the first period’s average, and the volume average', () => {
    assert.deepEqual(full(maFold([3], ['ma1'], 'close'), candles([1, 2, 3, 4, 5])), [{}, {}, { ma1: 2 }, { ma1: 3 }, { ma1: 4 }]);
    const ema = full(emaFold([3], ['ema1'], 'close'), candles([1, 2, 3, 4]));
    assert.deepEqual(ema.slice(0, 3), [{}, {}, { ema1: 2 }]);
    assert.equal(ema[3]!.ema1, (2 * 4 + 2 * 2) / 4);
    assert.deepEqual(full(volFold([2], ['ma1']), candles([1, 2, 3]))[2], { volume: 100, open: 2.5, close: 3, ma1: 100 });
    assert.deepEqual(full(maFold([2], ['ma1'], 'high'), candles([1, 2, 3]))[2], { ma1: 3.5 }, 'from the chosen price');
  });

  it('gives RSI 100 on a rising market, 0 on a falling one, bands of zero width on a flat one, and a MACD of zero', () => {
    assert.equal(full(rsiFold([3], ['rsi1'], 'close'), candles([1, 2, 3, 4, 5])).at(-1)!.rsi1, 100);
    assert.equal(full(rsiFold([3], ['rsi1'], 'close'), candles([5, 4, 3, 2, 1])).at(-1)!.rsi1, 0);
    assert.deepEqual(full(bollFold([3, 2], 'close'), candles([7, 7, 7, 7])).at(-1), { up: 7, mid: 7, dn: 7 });
    assert.deepEqual(full(macdFold([2, 3, 2], 'close'), candles([7, 7, 7, 7, 7])).at(-1), { dif: 0, macd: 0, dea: 0 });
  });

  it('gives Williams %R 0 at the period’s high and −100 at its low, a flat CCI 0, OBV adding rising volume and taking falling volume off, and the PVT’s running sum', () => {
    const bars = (rows: Array<[number, number, number, number]>) => rows.map(([high, low, close, volume], i) => ({ timestamp: i, open: close, high, low, close, volume }));
    const wr = full(wrFold([3], ['wr1']), bars([[2, 1, 1.5, 1], [3, 1, 2, 1], [4, 2, 4, 1], [4, 1, 1, 1]]));
    assert.deepEqual(wr.map((v) => v.wr1), [undefined, undefined, 0, -100]);
    assert.deepEqual(full(cciFold([3]), bars([[2, 1, 1.5, 1], [2, 1, 1.5, 1], [2, 1, 1.5, 1]])).at(-1), { cci: 0 });
    const obv = full(obvFold([2]), bars([[2, 1, 1, 10], [3, 1, 2, 20], [3, 1, 1.5, 5], [3, 1, 1.5, 7]]));
    assert.deepEqual(obv.map((v) => v.obv), [0, 20, 15, 15]);
    assert.deepEqual(obv.map((v) => v.maObv), [undefined, 10, 17.5, 15]);
    assert.deepEqual(full(pvtFold(), bars([[2, 1, 1, 10], [3, 1, 2, 20], [3, 1, 1, 5]])).map((v) => v.pvt), [0, 20, 17.5]);
  });

  it('resumed on a changed forming candle or a new one, gives exactly what folding every candle again gives', () => {
    // Short periods, so that a few dozen candles reach every stage of each formula.
    const params: Record<ChartIndicatorName, number[]> = {
      MA: [3, 7], EMA: [2, 5], SMA: [4, 2], BOLL: [4, 2], SAR: [2, 2, 20], BBI: [1, 2, 3, 5],
      VOL: [2, 5], MACD: [3, 6, 4], RSI: [3, 6], KDJ: [4, 2, 3], CCI: [4], DMI: [3, 3], WR: [2, 5], AO: [2, 5],
      MTM: [3, 2], ROC: [2, 3], TRIX: [2, 3], BIAS: [2, 4], DMA: [2, 5, 3], OBV: [3], PVT: [], VR: [3, 2], BRAR: [4], PSY: [3, 2],
    };
    const names = CHART_INDICATORS;
    const keys: Partial<Record<ChartIndicatorName, string[]>> = { MA: ['ma1', 'ma2'], EMA: ['ema1', 'ema2'], RSI: ['rsi1', 'rsi2'], VOL: ['ma1', 'ma2'], WR: ['wr1', 'wr2'], BIAS: ['bias1', 'bias2'] };
    const step = fc.oneof(fc.record({ kind: fc.constant('tick' as const), close: fc.double({ min: 1, max: 2, noNaN: true }) }), fc.record({ kind: fc.constant('open' as const), close: fc.double({ min: 1, max: 2, noNaN: true }) }), fc.record({ kind: fc.constant('reload' as const), close: fc.constant(1) }));
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.constantFrom('close', 'hl2', 'open'), fc.array(fc.double({ min: 1, max: 2, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.array(step, { maxLength: 40 }), (name, source, start, steps) => {
        const make = () => foldOf(name, params[name], source as 'close', keys[name] ?? []);
        const run = resumable(make());
        // KLineChart's list: replaced in place on a tick, pushed on a new candle, a new list on a reload.
        let list = start.map((c, i) => candle(c, i, 100 + i));
        run(list);
        for (const s of steps) {
          if (s.kind === 'tick') list[list.length - 1] = candle(s.close, list.length - 1, 100 + list.length);
          else if (s.kind === 'open') list.push(candle(s.close, list.length, 50 + list.length));
          else list = list.map((k) => ({ ...k }));
          assert.deepEqual(run(list).map((v) => ({ ...v })), full(make(), list));
        }
      }),
      { numRuns: 600 },
    );
  });

  it('on a tick computes only the forming candle, and on a new list everything', () => {
    let steps = 0;
    const inner = maFold([3], ['ma1'], 'close');
    const counted: Fold<{ sums: number[] }> = { ...inner, step: (s, d, i) => (steps++, inner.step(s, d, i)) };
    const run = resumable(counted);
    const list = candles([1, 2, 3, 4, 5, 6]);
    run(list);
    assert.equal(steps, 6);
    list[5] = candle(9, 5);
    assert.equal(run(list)[5]!.ma1, (4 + 5 + 9) / 3);
    assert.equal(steps, 7);
    list.push(candle(10, 6));
    assert.equal(run(list)[6]!.ma1, (5 + 9 + 10) / 3);
    assert.equal(steps, 8);
    run([...list]);
    assert.equal(steps, 15);
  });
});
