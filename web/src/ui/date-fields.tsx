import '@mantine/dates/styles.css';
import { DateInput, DateTimePicker, type CalendarAriaLabels, type DayOfWeek } from '@mantine/dates';
import { useId } from 'react';
import { formDateTime, parseDayText, pickerDateTime } from './date-text';

/**
 * The app's date fields, over Mantine's date pickers: a day, and a date with a time. Both show
 * their value in the app's format ('05 Jan 2026', '30 Nov 2030, 12:00'); the values are the
 * trader's own wall clock, with no zone, which the caller names in the label and reads in the
 * trader's zone. This module, Mantine's date components, dayjs and their style sheet are one chunk
 * that the screens using them load on first use (`lazy`), never with a first screen.
 */

const ARIA_LABELS: CalendarAriaLabels = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
  // The level buttons ('November 2030', '2030') are named by their text.
};
/** Weekends in the text's colour: Mantine's red fails the contrast rule, and a weekend day may still be picked. */
const NO_WEEKEND: DayOfWeek[] = [];

export interface DayFieldProps {
  label: string;
  /** The day, 'YYYY-MM-DD', or '' for none. */
  value: string;
  onChange(day: string): void;
  error?: string;
  size?: 'xs' | 'sm';
  w?: number;
  /** The first and last days the calendar offers, 'YYYY-MM-DD' (a typed day outside them is not taken). */
  minDate?: string;
  maxDate?: string;
}

/**
 * A day, typed ('5 Jan 2026' or '2026-01-05') or picked from the calendar that opens under the
 * field. Only a whole day changes the value (a half-typed text does not), and leaving the field
 * writes the value back in the app's format; emptied, the field has no day.
 */
export function DayField({ label, value, onChange, error, size = 'xs', w, minDate, maxDate }: DayFieldProps) {
  return (
    <DateInput
      label={label}
      size={size}
      w={w}
      minDate={minDate || undefined}
      maxDate={maxDate || undefined}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
      valueFormat="DD MMM YYYY"
      dateParser={parseDayText}
      placeholder="DD Mon YYYY"
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      error={error}
      ariaLabels={ARIA_LABELS}
      hideOutsideDates
      weekendDays={NO_WEEKEND}
      popoverProps={{ withinPortal: true }}
    />
  );
}

export interface DateTimeFieldProps {
  label: string;
  description?: string;
  /** The date and time, 'YYYY-MM-DDTHH:mm' (a datetime-local field's form), or '' for none. */
  value: string;
  onChange(value: string): void;
  /** What the clear button does, for its name ('Clear the expiry'). */
  clearLabel: string;
  placeholder?: string;
  error?: string;
  /** Finger-sized: a larger field, and the calendar in a dialog of its own instead of a dropdown. */
  touch?: boolean;
  'data-testid'?: string;
}

/**
 * A date and a time, picked: the field is a button that opens a calendar (arrow keys move the day,
 * Enter picks it) with the hours and minutes under it (typed, or stepped with the arrow keys) and a
 * button that sets them; Enter in the time sets them too. Times before now cannot be picked.
 */
export function DateTimeField({ label, description, value, onChange, clearLabel, placeholder, error, touch = false, ...rest }: DateTimeFieldProps) {
  // One id for the field and its dropdown, so the dropdown (a dialog) is named by the field's label.
  const id = useId();
  return (
    <DateTimePicker
      id={id}
      label={label}
      description={description}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      size={touch ? 'lg' : 'xs'}
      value={pickerDateTime(value)}
      onChange={(v) => onChange(formDateTime(v))}
      valueFormat="DD MMM YYYY, HH:mm"
      placeholder={placeholder}
      minDate={new Date()}
      clearable
      clearButtonProps={{ 'aria-label': clearLabel }}
      error={error}
      ariaLabels={ARIA_LABELS}
      timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
      submitButtonProps={{ 'aria-label': 'Set the date and time' }}
      dropdownType={touch ? 'modal' : 'popover'}
      // On a phone the calendar of 48 px days fills the width of the screen.
      modalProps={{ title: label, withCloseButton: true, closeButtonProps: { 'aria-label': 'Close the calendar' }, xOffset: 6, padding: 'xs', centered: true }}
      popoverProps={{ withinPortal: true, id }}
      hideOutsideDates
      weekendDays={NO_WEEKEND}
      // Mantine's placeholder grey is below the contrast rule on a button's text; the app's dimmed is not.
      styles={{ description: { marginTop: 4 }, placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      data-testid={rest['data-testid']}
    />
  );
}
