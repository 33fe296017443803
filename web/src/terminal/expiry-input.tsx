import { TextInput } from '@mantine/core';
import { localInputText, timeZoneLabel } from '../format/format';

/**
 * A pending order's expiry: a date and time in the trader's own zone (named in the label), said
 * back under the field in the app's format, so what the browser's picker shows in its own way is
 * confirmed as every other time in the app reads. Empty: good till cancelled.
 */
export function ExpiryInput({ value, onChange, error, size }: { value: string; onChange(v: string): void; error?: string; size: 'xs' | 'lg' }) {
  const said = value ? localInputText(value) : null;
  return (
    <TextInput
      label={`Expiry (${timeZoneLabel()})`}
      description={value ? (said ? `Expires ${said}` : 'Not a date and time yet') : 'Empty: good till cancelled'}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      type="datetime-local"
      size={size}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      styles={{ description: { marginTop: 4 } }}
      data-testid="expiry-input"
    />
  );
}
