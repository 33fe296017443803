import type { SymbolRecord } from '@tradeport/contracts';
import { formatDecimal } from '../format/format';

/**
 * An instrument's specification as the price table's Details shows it, in words, from the
 * catalogue's row (`getMainCurrencies`). Pure; unit-tested in test/instrument-spec.test.ts.
 */

const DAY_NAMES: Record<string, string> = { sun: 'Sunday', mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday' };

/** A time zone's name as people say it: 'America/New_York' → 'New York'. */
export function zoneName(zone: string): string {
  return zone === 'UTC' ? 'UTC' : (zone.split('/').pop() ?? zone).replace(/_/g, ' ');
}

const day = (d: string) => DAY_NAMES[d.toLowerCase()] ?? d;

/**
 * A trading session as the catalogue writes it, in words: 'America/New_York Sun 17:00-Fri 17:00'
 * → 'Sunday 17:00 to Friday 17:00, New York time'; 'America/New_York Mon-Fri 09:30-16:00' →
 * 'Monday to Friday, 09:30 to 16:00, New York time'; 'always' → 'Around the clock, every day'.
 * Anything else is shown as written.
 */
export function sessionText(session: string): string {
  const text = session.trim();
  if (text.toLowerCase() === 'always') return 'Around the clock, every day';
  const zoned = /^(\S+)\s+(.+)$/.exec(text);
  const hasZone = !!zoned && (zoned[1]!.includes('/') || zoned[1] === 'UTC');
  const zone = hasZone ? zoned![1]! : 'UTC';
  const rest = hasZone ? zoned![2]! : text;
  const where = `${zoneName(zone)} time`;
  let m = /^([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*([A-Za-z]{3}) (\d{1,2}:\d{2})$/.exec(rest);
  if (m) return `${day(m[1]!)} ${m[2]} to ${day(m[3]!)} ${m[4]}, ${where}`;
  m = /^([A-Za-z]{3})-([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/.exec(rest);
  if (m) return `${day(m[1]!)} to ${day(m[2]!)}, ${m[3]} to ${m[4]}, ${where}`;
  return text;
}

/** One point of the instrument: 10^-digits, written with its digits ('0.00001'; '1' for 0 digits). */
export function pointText(digits: number): string {
  return digits <= 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;
}

/** How many decimals a catalogue figure is written with (0.01 → 2, 100 → 0). */
const decimalsOf = (v: number) => (Number.isInteger(v) ? 0 : (String(v).split('.')[1]?.length ?? 2));

/** A swap in points per lot per day, signed: '-7.2 points', '+2.1 points', '0 points'. */
export function swapText(points: number): string {
  if (!Number.isFinite(points) || points === 0) return '0 points';
  const text = formatDecimal(Math.abs(points), decimalsOf(points));
  return `${points > 0 ? '+' : '-'}${text} points`;
}

export interface SpecLine {
  label: string;
  value: string;
  /** A figure (tabular, right-aligned in a table). */
  figure?: boolean;
}

/**
 * The specification's lines, in the order a trader reads them. `swaps`: the account type's own on
 * this instrument, which it is charged instead of the catalogue's.
 */
export function instrumentSpec(record: SymbolRecord, swaps?: { swapLong: number; swapShort: number }): SpecLine[] {
  const own = swaps ? ' (your account type’s)' : '';
  const forex = record.calcMode === 'forex';
  const lots = (v: number) => formatDecimal(v, decimalsOf(v));
  return [
    { label: 'Group', value: record.CurrencyType },
    { label: 'Currencies', value: `${record.baseCurrency} / ${record.quoteCurrency} (profit in ${record.quoteCurrency})` },
    { label: 'Digits', value: `${record.digits} (one point is ${pointText(record.digits)})`, figure: true },
    { label: 'Contract size', value: `${formatDecimal(record.contractSize, 0)} ${forex ? record.baseCurrency : 'units'} per lot`, figure: true },
    { label: 'Volume', value: `${lots(record.volumeMin)} to ${lots(record.volumeMax)} lots, in steps of ${lots(record.volumeStep)}`, figure: true },
    { label: 'Margin', value: `${forex ? `Forex: contract × volume ÷ leverage, in ${record.baseCurrency}` : `CFD: contract × volume × price ÷ leverage, in ${record.quoteCurrency}`}${record.marginRate === 1 ? '' : `, × ${formatDecimal(record.marginRate, decimalsOf(record.marginRate))}`}, converted to USD` },
    { label: 'Swap, Buy', value: `${swapText((swaps ?? record).swapLong)} per lot a day${own}`, figure: true },
    { label: 'Swap, Sell', value: `${swapText((swaps ?? record).swapShort)} per lot a day${own}`, figure: true },
    { label: 'Swap days', value: 'Charged at the daily rollover, Monday to Friday; Wednesday’s counts three days' },
  ];
}
