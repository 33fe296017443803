import { TextInput } from '@mantine/core';
import { useState } from 'react';

/** A list's filters: their values, a setter for each, whether any is set, and Clear filters. */
export function useFilters<V extends Record<string, unknown>>(initial: V) {
  const [values, setValues] = useState(initial);
  return {
    values,
    set:
      <K extends keyof V>(name: K) =>
      (value: V[K]) =>
        setValues((v) => ({ ...v, [name]: value })),
    active: Object.keys(initial).some((name) => values[name] !== initial[name]),
    clear: () => setValues(initial),
  };
}

/** What a list says instead of rows when its From day is after its To day (days as 'YYYY-MM-DD'), else null. */
export function datesProblem(from: string, to: string, labels = { from: 'From', to: 'To' }): string | null {
  return from !== '' && to !== '' && from > to ? `Choose a '${labels.from}' date on or before the '${labels.to}' date.` : null;
}

/**
 * The From and To days of a list's filters (UTC days, as the server reads them): each limits the
 * other's calendar, and To says so when it is before From.
 */
export function DateRangeFields({ from, to, onFrom, onTo, labels = { from: 'From', to: 'To' }, toError = 'Must be on or after From' }: { from: string; to: string; onFrom: (day: string) => void; onTo: (day: string) => void; labels?: { from: string; to: string }; toError?: string }) {
  const wrong = datesProblem(from, to) !== null;
  return (
    <>
      <TextInput label={labels.from} type="date" value={from} onChange={(e) => onFrom(e.currentTarget.value)} max={to || undefined} />
      <TextInput label={labels.to} type="date" value={to} onChange={(e) => onTo(e.currentTarget.value)} min={from || undefined} error={wrong ? toError : undefined} />
    </>
  );
}
