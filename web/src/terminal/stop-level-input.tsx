import { ActionIcon, NumberInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuote } from '../stream/hooks';
import { nudgeStopLevel, type StopKind, type TradeSide } from './stop-levels';

export interface StopLevelInputProps {
  label: string;
  kind: StopKind;
  side: TradeSide;
  symbol: string;
  digits: number;
  /** 0 = not set. */
  value: number;
  onChange(v: number): void;
  error?: string | null;
  /** Sized for a thumb (the phone): a taller field and 44 px minus / plus buttons. */
  touch?: boolean;
  /** Forwarded to the input, for forms that need a stable hook. */
  'data-testid'?: string;
}

/**
 * A stop-loss or take-profit stepper: minus / price / plus, typing allowed. It reads the symbol's
 * live quote itself so the first press lands a few points away on the valid side (see
 * `nudgeStopLevel`); an empty field means none (0 on the wire). Arrow Up/Down step like the buttons.
 */
export function StopLevelInput({ label, kind, side, symbol, digits, value, onChange, error, touch = false, 'data-testid': testId }: StopLevelInputProps) {
  const q = useQuote(symbol)?.quote;
  const nudge = (direction: 1 | -1) => onChange(nudgeStopLevel({ kind, side, current: value, direction, bid: q?.bid ?? Number.NaN, ask: q?.ask ?? Number.NaN, digits }));
  const what = kind === 'sl' ? 'stop loss' : 'take profit';
  return (
    <NumberInput
      label={label}
      size={touch ? 'lg' : 'xs'}
      value={value > 0 ? value : ''}
      onChange={(v) => {
        const n = typeof v === 'number' ? v : Number(v);
        onChange(v === '' || !Number.isFinite(n) || n < 0 ? 0 : n);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
          e.preventDefault();
          nudge(e.key === 'ArrowUp' ? 1 : -1);
        }
      }}
      placeholder="—"
      hideControls
      allowNegative={false}
      decimalScale={digits}
      fixedDecimalScale
      inputMode="decimal"
      error={error || undefined}
      classNames={{ input: 'tp-figure' }}
      styles={{ input: { textAlign: 'center' } }}
      leftSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label={`Lower the ${what}`} onClick={() => nudge(-1)}>
          <IconMinus size={14} />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label={`Raise the ${what}`} onClick={() => nudge(1)}>
          <IconPlus size={14} />
        </ActionIcon>
      }
      leftSectionWidth={touch ? 48 : undefined}
      rightSectionWidth={touch ? 48 : undefined}
      leftSectionPointerEvents="all"
      rightSectionPointerEvents="all"
      data-testid={testId}
    />
  );
}
