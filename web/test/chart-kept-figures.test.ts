import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptFigures, READS_FORMING_CANDLE, type FigureFrame } from '../src/chart/kept-figures';
import { TOOL_BY_NAME } from '../src/chart/tools';
import type { Shape } from '../src/chart/tools/shape';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5);
const candles = (closes: number[]) => closes.map((close, i) => ({ timestamp: T0 + i * HOUR, close }));
const yOf = (price: number) => 400 - (price - 1) * 2000;

/** Counts the geometry runs: the figures are the shapes themselves. */
function counted(tool: string) {
  let built = 0;
  const figures = keptFigures(TOOL_BY_NAME.get(tool as never)!, (shapes: Shape[]) => {
    built += 1;
    return shapes;
  });
  return { figures, built: () => built };
}

/** One frame of a drawing, its anchors placed in pixels by the frame's mapping. */
const frame = (overlay: FigureFrame['overlay'], data: FigureFrame['candles'], extra: Partial<FigureFrame> = {}): FigureFrame => {
  const map = extra.yOf ?? yOf;
  return {
    overlay,
    coords: overlay.points.map((p) => ({ x: ((p.timestamp! - T0) / HOUR) * 10, y: map(p.value!) })),
    width: 800,
    height: 400,
    candles: data,
    digits: 5,
    yOf: map,
    ...extra,
  };
};

describe('kept drawing figures', () => {
  it('gives the same figures again while nothing a drawing is drawn from changed (a tick on the forming candle)', () => {
    const { figures, built } = counted('trendLine');
    const overlay = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 5 * HOUR, value: 1.12 }], extendData: { color: '#1c7ed6', width: 2 } };
    const first = figures(frame(overlay, candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15, 1.16])));
    const again = figures(frame(overlay, candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15, 1.17])));
    assert.equal(again, first);
    assert.equal(built(), 1);
  });

  it('builds them again when the anchors move, the pane is resized, the axis rescales, a candle opens or the style or line style changes', () => {
    const { figures, built } = counted('trendLine');
    const overlay = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 5 * HOUR, value: 1.12 }], extendData: { color: '#1c7ed6', width: 2 } };
    const data = candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15]);
    const steps: Array<[string, () => unknown]> = [
      ['first', () => figures(frame(overlay, data))],
      ['anchor moved', () => {
        overlay.points[1]!.value = 1.13;
        return figures(frame(overlay, data));
      }],
      ['pane wider', () => figures(frame(overlay, data, { width: 900 }))],
      ['axis rescaled', () => figures(frame(overlay, data, { width: 900, yOf: (p) => 500 - (p - 1) * 2000 }))],
      ['candle opened', () => figures(frame(overlay, candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15, 1.16]), { width: 900, yOf: (p) => 500 - (p - 1) * 2000 }))],
      ['restyled', () => figures(frame({ ...overlay, extendData: { color: '#e03131', width: 2 } }, candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15, 1.16]), { width: 900, yOf: (p) => 500 - (p - 1) * 2000 }))],
      ['dashed', () => figures(frame({ ...overlay, extendData: { color: '#e03131', width: 2, lineStyle: 'dashed' } }, candles([1.1, 1.11, 1.12, 1.13, 1.14, 1.15, 1.16]), { width: 900, yOf: (p) => 500 - (p - 1) * 2000 }))],
    ];
    steps.forEach(([what, step], i) => {
      step();
      assert.equal(built(), i + 1, what);
    });
    // Another drawing of the same tool keeps its own figures.
    figures(frame({ points: overlay.points.map((p) => ({ ...p })), extendData: overlay.extendData }, data));
    assert.equal(built(), 8);
  });

  it('builds a note again when its text is edited, and draws it with the text it has', () => {
    const { figures, built } = counted('textNote');
    const data = candles([1.1, 1.11, 1.12]);
    const note = (text: string) => ({ points: [{ timestamp: T0, value: 1 }], extendData: { color: '#1c7ed6', width: 2, text } });
    const overlay = note('First');
    assert.deepEqual(figures(frame(overlay, data)), [{ kind: 'note', at: { x: 0, y: 400 }, lines: ['First'] }]);
    figures(frame(overlay, data));
    assert.equal(built(), 1);
    overlay.extendData.text = 'Second';
    assert.deepEqual(figures(frame(overlay, data)), [{ kind: 'note', at: { x: 0, y: 400 }, lines: ['Second'] }]);
    assert.equal(built(), 2);
  });

  it('fits a channel again when the axis rescales around its anchors (same anchor pixels, other prices on screen)', () => {
    const { figures, built } = counted('regressionChannel');
    const flat = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 4 * HOUR, value: 1.1 }] };
    const data = candles([1.1, 1.12, 1.09, 1.13, 1.1, 1.11]);
    const before = figures(frame(flat, data));
    // The anchors' price keeps its pixel; every other price moves.
    const steeper = (p: number) => yOf(1.1) - (p - 1.1) * 4000;
    const after = figures(frame(flat, data, { yOf: steeper }));
    assert.equal(built(), 2);
    assert.notDeepEqual(after, before);
  });

  it('fits a regression channel reaching the forming candle again when its close moves, and not one that ends before it', () => {
    const live = counted('regressionChannel');
    const toLast = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 6 * HOUR, value: 1.16 }] };
    const before = live.figures(frame(toLast, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.15])));
    const after = live.figures(frame(toLast, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.25])));
    assert.equal(live.built(), 2);
    assert.notDeepEqual(after, before, 'the fitted band follows the new close');

    const past = counted('regressionChannel');
    const ended = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 3 * HOUR, value: 1.13 }] };
    past.figures(frame(ended, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.15])));
    past.figures(frame(ended, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.25])));
    assert.equal(past.built(), 1);
  });

  it('marks on the overlay whether its figures read the forming candle, for the build step that keeps the drawings’ canvas through ticks', () => {
    const channel = counted('regressionChannel');
    const overlay: FigureFrame['overlay'] & { [READS_FORMING_CANDLE]?: boolean } = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 6 * HOUR, value: 1.16 }] };
    channel.figures(frame(overlay, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.15])));
    assert.equal(overlay[READS_FORMING_CANDLE], true, 'a channel fitted up to the forming candle');
    // Older candles loaded: the same anchors now end before the forming candle.
    channel.figures(frame(overlay, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.15, 1.16, 1.17])));
    assert.equal(overlay[READS_FORMING_CANDLE], false, 'the channel ends before the forming candle');
    const line = counted('trendLine');
    const trend: FigureFrame['overlay'] & { [READS_FORMING_CANDLE]?: boolean } = { points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 6 * HOUR, value: 1.16 }] };
    line.figures(frame(trend, candles([1.1, 1.12, 1.11, 1.13, 1.12, 1.14, 1.15])));
    assert.equal(trend[READS_FORMING_CANDLE], false, 'a trend line reads no candle');
    assert.equal(Symbol.for('tradeport.chart.readsFormingCandle'), READS_FORMING_CANDLE, 'the symbol the build step looks for');
  });
});
