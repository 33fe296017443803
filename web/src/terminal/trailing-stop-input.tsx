import { Checkbox, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { trailedStop, trailTrigger, type Side, type Trailing } from '@tradeport/trading-math';
import { formatPrice } from '../format/format';
import { useQuote } from '../stream/hooks';

/** What a trailing stop starts as when it is switched on: 200 points behind, at once, in steps of 1. */
export const TRAILING_DEFAULT: Trailing = { distance: 200, activation: 0, step: 1 };

export interface TrailingStopInputProps {
  /** null: none. */
  value: Trailing | null;
  onChange(v: Trailing | null): void;
  side: Side;
  symbol: string;
  digits: number;
  /** The position's open price; absent (a new order): the market's now (Buy at the ask, Sell at the bid). */
  open?: number;
  /** For a pending order: the position it opens gets the trailing stop, so the outlook speaks of the fill. */
  pending?: boolean;
  /** The stop loss the position has (0: none): the trail moves it only toward profit. */
  stopLoss: number;
  error?: string | null;
  touch?: boolean;
  'data-testid'?: string;
}

const pointsValue = (v: string | number): number => (v === '' ? Number.NaN : typeof v === 'number' ? v : Number(v));

/**
 * A position's trailing stop (docs/design.md#trailing-stops), run by the server: a check box, and
 * when it is on the distance, activation and step in points, with where the stop goes at today's
 * price. The server moves the stop loss; this only sets the rule.
 */
export function TrailingStopInput({ value, onChange, side, symbol, digits, open, pending = false, stopLoss, error, touch = false, 'data-testid': testId = 'trailing' }: TrailingStopInputProps) {
  const q = useQuote(symbol)?.quote;
  const size = touch ? 'lg' : 'xs';
  const field = (label: string, key: keyof Trailing, min: number, hint: string) => (
    <NumberInput
      label={label}
      description={hint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      size={size}
      min={min}
      allowDecimal={false}
      allowNegative={false}
      hideControls
      suffix=" pts"
      inputMode="numeric"
      classNames={{ input: 'tp-figure' }}
      value={value && Number.isFinite(value[key]) ? value[key] : ''}
      onChange={(v) => value && onChange({ ...value, [key]: pointsValue(v) })}
      data-testid={`${testId}-${key}`}
    />
  );
  let outlook = '';
  const bid = q?.bid;
  const ask = q?.ask;
  if (value && pending && !error && Number.isFinite(value.distance)) {
    const follows = `${side === 'buy' ? 'bid' : 'ask'}, ${value.distance.toLocaleString('en-US')} points behind`;
    outlook = value.activation > 0 ? `Once the order fills and is ${value.activation.toLocaleString('en-US')} points in profit, the stop loss follows the ${follows}.` : `Once the order fills, the stop loss follows the ${follows}.`;
  } else if (value && typeof bid === 'number' && typeof ask === 'number' && !error) {
    const from = open ?? (side === 'buy' ? ask : bid);
    const to = trailedStop(side, from, stopLoss, value, { bid, ask }, digits);
    const at = trailTrigger(side, from, stopLoss, value, digits);
    outlook = to !== null ? `At today's price the stop loss goes to ${formatPrice(to, digits)}.` : `The stop loss next moves when the ${side === 'buy' ? 'bid reaches' : 'ask falls to'} ${formatPrice(at, digits)}.`;
  }
  return (
    <Stack gap={6} data-testid={testId}>
      <Checkbox
        size={touch ? 'md' : 'sm'}
        label="Trailing stop"
        description="Run by the server: the stop loss follows the price, toward profit only, with your browser closed."
        checked={value !== null}
        onChange={(e) => onChange(e.currentTarget.checked ? TRAILING_DEFAULT : null)}
        data-testid={`${testId}-on`}
      />
      {value && (
        <>
          <SimpleGrid cols={3} spacing="xs">
            {field('Distance', 'distance', 1, 'from the price')}
            {field('Activation', 'activation', 0, '0 = at once')}
            {field('Step', 'step', 1, 'least move')}
          </SimpleGrid>
          {error ? (
            <Text size="xs" c="var(--mantine-color-error)" role="alert" data-testid={`${testId}-error`}>
              {error}
            </Text>
          ) : (
            outlook && (
              <Text size="xs" c="dimmed" data-testid={`${testId}-outlook`}>
                {outlook}
              </Text>
            )
          )}
        </>
      )}
    </Stack>
  );
}
