import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHART_INDICATORS, INDICATOR_SETTINGS, indicatorSettingsProblem } from '@tradeport/contracts/chart-names';
import { foldPriceZeros, INDICATOR_BY_NAME, INDICATORS, indicatorDecimals, indicatorStyles, indicatorTitle, newIndicator } from '../src/chart/indicators';

/** KLineChart's own zero folding (its formatFoldDecimal), for comparison. */
function klineFold(value: string, threshold = 3): string {
  if (!new RegExp(`\\.0{${threshold},}[1-9][0-9]*$`).test(value)) return value;
  const [whole, decimals] = value.split('.') as [string, string];
  return `${whole}.${decimals.replace(/0*/, `0{${/0*/.exec(decimals)![0].length}}`)}`;
}

describe('how indicator values are written', () => {
  it('writes oscillators with 2 decimals, percentages with 3, and price differences one digit finer than the instrument', () => {
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('RSI')!.precision, 5), 2);
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('KDJ')!.precision, 2), 2 + 1, 'never the instrument’s own digits, which fold like a price');
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('ROC')!.precision, 5), 3);
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('MACD')!.precision, 5), 6, 'a MACD of 0.000039 on EURUSD reads 0.000039');
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('MACD')!.precision, 2), 3, 'on BTCUSD 152.375');
    assert.equal(indicatorDecimals(INDICATOR_BY_NAME.get('MA')!.precision, 5), undefined, 'an average is a price: KLineChart writes it in the instrument’s digits');
  });

  it('folds zeros only in a number with the instrument’s digits (a price), exactly as KLineChart does', () => {
    assert.equal(foldPriceZeros('0.00003', 5), '0.0{4}3');
    assert.equal(foldPriceZeros('1.00005', 5), '1.0{4}5');
    assert.equal(foldPriceZeros('0.000039', 5), '0.000039', 'a MACD value (6 decimals) is never folded');
    assert.equal(foldPriceZeros('64.00', 5), '64.00');
    assert.equal(foldPriceZeros('1.08512', 5), '1.08512');
    assert.equal(foldPriceZeros('12.345K', 3), '12.345K', 'a volume in thousands is not a price');
    assert.equal(foldPriceZeros('0.00000', 5), '0.00000', 'zero stays zero');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.constantFrom(2, 3, 5), (n, digits) => {
        const price = (n / 10 ** digits).toFixed(digits);
        assert.equal(foldPriceZeros(price, digits), klineFold(price));
        // Every indicator's own decimals on that instrument leave its values unfolded.
        for (const def of INDICATORS) {
          const decimals = indicatorDecimals(def.precision, digits);
          if (decimals !== undefined) assert.equal(foldPriceZeros((n / 10 ** decimals).toFixed(decimals), digits), (n / 10 ** decimals).toFixed(decimals));
        }
      }),
    );
  });

  it('names an indicator with its settings, and one without any by its name alone', () => {
    assert.equal(indicatorTitle(newIndicator('KDJ')), 'KDJ 9, 3, 3');
    assert.equal(indicatorTitle(newIndicator('PVT')), 'PVT');
    assert.equal(indicatorTitle({ ...newIndicator('MA'), source: 'hl2' }), 'MA 20 · (High + Low) / 2');
  });
});

describe('the indicators offered', () => {
  it('are at least 15, each with defaults the server accepts, a colour per line and the friendly names people know', () => {
    assert.ok(INDICATORS.length >= 15, `${INDICATORS.length} indicators`);
    assert.deepEqual(INDICATORS.map((d) => d.name), [...CHART_INDICATORS]);
    for (const def of INDICATORS) {
      assert.equal(indicatorSettingsProblem(def.name, def.defaults.params), null, def.name);
      assert.equal(def.settings, INDICATOR_SETTINGS[def.name]);
      assert.equal(def.defaults.colors.length, def.colorLabels.length, def.name);
      assert.ok(def.defaults.colors.length >= 1 && def.defaults.colors.length <= 4, def.name);
    }
    const label = (name: string) => INDICATOR_BY_NAME.get(name as never)!.label;
    assert.equal(label('KDJ'), 'Stochastic (KDJ)');
    assert.equal(label('WR'), 'Williams %R');
    assert.equal(label('SAR'), 'Parabolic SAR');
    assert.equal(label('DMI'), 'ADX (DMI)');
    assert.deepEqual(INDICATORS.filter((d) => d.overlay).map((d) => d.name), ['MA', 'EMA', 'SMA', 'BOLL', 'SAR', 'BBI'], 'averages, bands and SAR over the candles; the rest below');
  });

  it('refuses settings out of bounds, of the wrong count, or that disagree, saying which', () => {
    assert.equal(indicatorSettingsProblem('RSI', [0]), 'RSI Period must be a whole number from 1 to 500.');
    assert.equal(indicatorSettingsProblem('RSI', [14.5]), 'RSI Period must be a whole number from 1 to 500.');
    assert.equal(indicatorSettingsProblem('BOLL', [20, 11]), 'BOLL Deviations must be from 0.1 to 10.');
    assert.equal(indicatorSettingsProblem('MACD', [12, 26]), 'MACD takes 3 settings (Fast period, Slow period, Signal period).');
    assert.equal(indicatorSettingsProblem('PVT', [3]), 'PVT takes no settings.');
    assert.equal(indicatorSettingsProblem('MTM', [12, 1]), 'MTM Average period must be a whole number from 2 to 500.');
    assert.equal(indicatorSettingsProblem('SMA', [5, 6]), 'SMA Weight must not be more than the period.');
    assert.equal(indicatorSettingsProblem('SAR', [5, 2, 4]), 'SAR Start and Step must not be more than the Maximum.');
    assert.equal(indicatorSettingsProblem('SAR', [2, 2, 20]), null);
  });

  it('colour the lines, or the rising and falling dots of SAR and bars of the awesome oscillator', () => {
    assert.deepEqual(indicatorStyles(INDICATOR_BY_NAME.get('MACD')!, ['#111111', '#222222']), { lines: [{ color: '#111111', size: 1.5 }, { color: '#222222', size: 1.5 }] });
    const sar = indicatorStyles(INDICATOR_BY_NAME.get('SAR')!, ['#111111', '#222222']) as { circles: Array<{ upColor: string; downColor: string; style: string }> };
    assert.equal(sar.circles[0]!.upColor, '#111111');
    assert.equal(sar.circles[0]!.downColor, '#222222');
    assert.equal(sar.circles[0]!.style, 'fill');
    const ao = indicatorStyles(INDICATOR_BY_NAME.get('AO')!, ['#333333']) as { bars: Array<{ upColor: string; downColor: string }> };
    assert.equal(ao.bars[0]!.upColor, '#333333');
    assert.equal(ao.bars[0]!.downColor, INDICATOR_BY_NAME.get('AO')!.defaults.colors[1], 'a missing colour is the default');
  });
});
