import { STATEMENT_MAX_DAYS } from '@tradeport/contracts';

/**
 * The periods a statement is asked for (docs/api.md#statements): a calendar month — this one so
 * far, or one of the twelve before it — or any range of days. Days are UTC, as the server counts them.
 */

export interface StatementPeriod {
  /** First and last day, 'YYYY-MM-DD', both included. */
  from: string;
  to: string;
}

export interface MonthChoice extends StatementPeriod {
  /** 'YYYY-MM': the choice's value. */
  value: string;
  label: string;
}

export const CUSTOM = 'custom';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** This month (to today) and the twelve before it, newest first. */
export function monthChoices(now: number): MonthChoice[] {
  const today = new Date(now);
  const choices: MonthChoice[] = [];
  for (let back = 0; back <= 12; back += 1) {
    const first = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1);
    const next = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back + 1, 1);
    const d = new Date(first);
    const name = `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    choices.push({ value: isoDay(first).slice(0, 7), label: back === 0 ? `${name} (to date)` : name, from: isoDay(first), to: back === 0 ? isoDay(now) : isoDay(next - DAY_MS) });
  }
  return choices;
}

/** Why a custom range cannot be asked for, or null when it can. */
export function customRangeProblem(p: StatementPeriod, now: number): string | null {
  if (!p.from) return 'Choose the first day.';
  if (!p.to) return 'Choose the last day.';
  if (p.from > p.to) return 'The first day must be on or before the last.';
  if (p.to > isoDay(now)) return 'A statement cannot end after today (UTC).';
  if ((Date.parse(p.to) - Date.parse(p.from)) / DAY_MS + 1 > STATEMENT_MAX_DAYS) return `A statement covers at most ${STATEMENT_MAX_DAYS} days.`;
  return null;
}

export const todayUtc = (now: number): string => isoDay(now);
