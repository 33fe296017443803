import { Skeleton } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

const DayField = lazy(() => import('../../ui/date-fields').then((m) => ({ default: m.DayField })));

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
 * The From and To days of a list's filters (UTC days, as the server reads them), typed or picked
 * from a calendar: each limits the other's calendar, and To says so when it is before From. The
 * date fields' chunk loads with the first list that shows them; until then each field's place is
 * held at its size.
 */
export function DateRangeFields({ from, to, onFrom, onTo, labels = { from: 'From', to: 'To' }, toError = 'Must be on or after From' }: { from: string; to: string; onFrom: (day: string) => void; onTo: (day: string) => void; labels?: { from: string; to: string }; toError?: string }) {
  const wrong = datesProblem(from, to) !== null;
  return (
    <>
      <Suspense fallback={<FieldPlace label={labels.from} />}>
        <DayField label={labels.from} size="sm" value={from} onChange={onFrom} maxDate={to} />
      </Suspense>
      <Suspense fallback={<FieldPlace label={labels.to} />}>
        <DayField label={labels.to} size="sm" value={to} onChange={onTo} minDate={from} error={wrong ? toError : undefined} />
      </Suspense>
    </>
  );
}

/** A date field's place while its chunk loads: its label's line and its input's height. */
function FieldPlace({ label }: { label: string }) {
  return <Skeleton height={59} role="status" aria-label={`Loading the ${label} field`} />;
}
