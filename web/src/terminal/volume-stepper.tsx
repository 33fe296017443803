import { ActionIcon, NumberInput, type NumberInputProps } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { decimalsOf, stepVolume, type OrderInstrument } from './order-rules';

type Limits = Pick<OrderInstrument, 'volumeMin' | 'volumeStep' | 'volumeMax'>;

/**
 * Volume in lots: minus / lots / plus on the instrument's grid (never below its minimum nor above
 * its maximum), typing allowed; Arrow Up/Down step like the buttons.
 */
export function VolumeStepper({
  value,
  onChange,
  limits,
  label = 'Volume',
  touch = false,
  ...rest
}: { value: number; onChange(v: number): void; limits: Limits; label?: React.ReactNode; /** Sized for a thumb: a taller field and 44 px minus / plus buttons. */ touch?: boolean } & Omit<NumberInputProps, 'value' | 'onChange' | 'label'>) {
  const step = (direction: 1 | -1) => onChange(stepVolume(value, direction, limits));
  return (
    <NumberInput
      label={label}
      size={touch ? 'lg' : 'xs'}
      value={value}
      onChange={(v) => onChange(typeof v === 'number' ? v : Number(v) || 0)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
          e.preventDefault();
          step(e.key === 'ArrowUp' ? 1 : -1);
        }
      }}
      hideControls
      allowNegative={false}
      decimalScale={Math.max(decimalsOf(limits.volumeStep), decimalsOf(limits.volumeMin))}
      inputMode="decimal"
      classNames={{ input: 'tp-figure' }}
      styles={{ input: { textAlign: 'center' } }}
      leftSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label="Lower the volume" onClick={() => step(-1)} disabled={value <= limits.volumeMin}>
          <IconMinus size={14} />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label="Raise the volume" onClick={() => step(1)} disabled={value >= limits.volumeMax}>
          <IconPlus size={14} />
        </ActionIcon>
      }
      leftSectionWidth={touch ? 48 : undefined}
      rightSectionWidth={touch ? 48 : undefined}
      leftSectionPointerEvents="all"
      rightSectionPointerEvents="all"
      {...rest}
    />
  );
}
