import { Input, Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { localInputText, timeZoneLabel } from '../format/format';

// The date picker is a chunk of its own, fetched when a form first shows an expiry.
const DateTimeField = lazy(() => import('../ui/date-fields').then((m) => ({ default: m.DateTimeField })));

/**
 * A pending order's expiry: a date and time in the trader's own zone (named in the label), picked
 * from a calendar and said back under the field with the zone, as every other time in the app
 * reads. Empty (or cleared): good till cancelled. The value is the form's 'YYYY-MM-DDTHH:mm'.
 */
export function ExpiryInput({ value, onChange, error, size }: { value: string; onChange(v: string): void; error?: string; size: 'xs' | 'lg' }) {
  const label = `Expiry (${timeZoneLabel()})`;
  const said = value ? localInputText(value) : null;
  const description = value ? (said ? `Expires ${said}` : 'Not a date and time yet') : 'Empty: good till cancelled';
  return (
    <Suspense
      fallback={
        <Input.Wrapper label={label} description={description} size={size} inputWrapperOrder={['label', 'input', 'description']}>
          <Skeleton height={size === 'lg' ? 50 : 30} aria-label="Loading the date picker" role="status" />
        </Input.Wrapper>
      }
    >
      <DateTimeField label={label} description={description} value={value} onChange={onChange} clearLabel="Clear the expiry (good till cancelled)" placeholder="Good till cancelled" error={error} touch={size === 'lg'} data-testid="expiry-input" />
    </Suspense>
  );
}
