import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PHONE_CHART_PREFS, loadPhoneChartPrefs, PHONE_CHART_PREFS_KEY, savePhoneChartPrefs } from '../src/chart/phone-chart-prefs';

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as Storage;
}

describe('the phone chart tab’s remembered settings', () => {
  it('starts at H1 candles, chart shown, crosshair off', () => {
    assert.deepEqual(loadPhoneChartPrefs(memory()), { period: 'H1', type: 'candle', shown: true, crosshair: false });
    assert.deepEqual(loadPhoneChartPrefs(undefined), DEFAULT_PHONE_CHART_PREFS);
  });

  it('gives back what was kept', () => {
    const s = memory();
    savePhoneChartPrefs(s, { period: 'M15', type: 'area', shown: false, crosshair: true });
    assert.deepEqual(loadPhoneChartPrefs(s), { period: 'M15', type: 'area', shown: false, crosshair: true });
  });

  it('replaces each unknown or damaged value by its default', () => {
    const s = memory();
    s.setItem(PHONE_CHART_PREFS_KEY, JSON.stringify({ period: 'H2', type: 'line', shown: 'yes', crosshair: true }));
    assert.deepEqual(loadPhoneChartPrefs(s), { period: 'H1', type: 'candle', shown: true, crosshair: true });
    s.setItem(PHONE_CHART_PREFS_KEY, '{not json');
    assert.deepEqual(loadPhoneChartPrefs(s), DEFAULT_PHONE_CHART_PREFS);
  });

  it('survives a storage that refuses to keep anything', () => {
    const full = { setItem: () => { throw new Error('QuotaExceededError'); } };
    assert.doesNotThrow(() => savePhoneChartPrefs(full, DEFAULT_PHONE_CHART_PREFS));
  });
});
