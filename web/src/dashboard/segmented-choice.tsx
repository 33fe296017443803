import { Box, SegmentedControl, useMantineTheme, type BoxProps, type MantineSize } from '@mantine/core';
import { useId } from 'react';

const classes = SegmentedControl.classes;

/**
 * A segmented control that looks exactly like Mantine's SegmentedControl (its own class names and
 * variables) but draws the selected segment's background on the segment itself, as Mantine does
 * before its floating indicator has measured anything, instead of sliding a floating indicator
 * into place. That indicator reads the segments' positions in an effect, which forces the page's
 * whole first style and layout inside the render task that mounts it: on a phone, hundreds of
 * milliseconds in which the page cannot answer. Radio inputs, so arrow keys move the choice.
 */
export function SegmentedChoice<T extends string>({
  data,
  value,
  onChange,
  size = 'xs',
  'aria-label': ariaLabel,
  ...box
}: { data: readonly (T | { value: T; label: string })[]; value: T; onChange: (value: T) => void; size?: MantineSize; 'aria-label': string } & Omit<BoxProps, 'children'>) {
  const theme = useMantineTheme();
  const name = useId();
  const items = data.map((item) => (typeof item === 'string' ? { value: item, label: item } : item));
  return (
    <Box
      {...box}
      className={classes.root}
      role="radiogroup"
      aria-label={ariaLabel}
      data-with-items-borders
      style={{ '--sc-shadow': 'var(--mantine-shadow-xs)', '--sc-padding': `var(--sc-padding-${size})`, '--sc-font-size': `var(--mantine-font-size-${size})` }}
    >
      {items.map((item) => {
        const active = item.value === value;
        const id = `${name}-${item.value}`;
        return (
          <div key={item.value} className={classes.control} data-active={active || undefined}>
            <input className={classes.input} type="radio" name={name} value={item.value} id={id} checked={active} onChange={() => onChange(item.value)} data-focus-ring={theme.focusRing} />
            <label className={classes.label} htmlFor={id} data-active={active || undefined}>
              <span className={classes.innerLabel}>{item.label}</span>
            </label>
          </div>
        );
      })}
    </Box>
  );
}
