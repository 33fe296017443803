import { PERIOD_NAMES, type PeriodName } from '@tradeport/contracts/periods';

/** What the phone's chart tab remembers between visits: period, type, chart shown, crosshair. */
export interface PhoneChartPrefs {
  period: PeriodName;
  type: 'candle' | 'area';
  shown: boolean;
  crosshair: boolean;
}

export const PHONE_CHART_PREFS_KEY = 'tradeport.phoneChart';

/** The spec's mobile default period is H1; candles, the chart shown, no crosshair (a finger pans). */
export const DEFAULT_PHONE_CHART_PREFS: PhoneChartPrefs = { period: 'H1', type: 'candle', shown: true, crosshair: false };

/** The remembered preferences, each unknown or damaged value replaced by its default. */
export function loadPhoneChartPrefs(storage: Pick<Storage, 'getItem'> | undefined): PhoneChartPrefs {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(PHONE_CHART_PREFS_KEY) ?? 'null');
  } catch {
    raw = null;
  }
  const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_PHONE_CHART_PREFS;
  return {
    period: PERIOD_NAMES.includes(v.period as PeriodName) ? (v.period as PeriodName) : d.period,
    type: v.type === 'area' || v.type === 'candle' ? v.type : d.type,
    shown: typeof v.shown === 'boolean' ? v.shown : d.shown,
    crosshair: typeof v.crosshair === 'boolean' ? v.crosshair : d.crosshair,
  };
}

/** Keeps the preferences; a full or refused storage only loses the memory, never the change. */
export function savePhoneChartPrefs(storage: Pick<Storage, 'setItem'> | undefined, prefs: PhoneChartPrefs): void {
  try {
    storage?.setItem(PHONE_CHART_PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Private browsing or a full storage: the tab still works, it forgets on the next visit.
  }
}
