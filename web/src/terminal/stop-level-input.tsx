import { ActionIcon, NumberInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { openPrice, profitAtLevel } from '@tradeport/trading-math';
import type { ReactNode } from 'react';
import { formatUsd } from '../format/format';
import { useQuote } from '../stream/hooks';
import { stream } from '../stream/stream';
import { centsText, priceLookup } from './positions-live';
import { nudgeStopLevel, pointsBetween, referencePrice, type StopKind, type TradeSide } from './stop-levels';

export interface PriceStepperProps {
  label: string;
  /** What the buttons move, as their names say it: 'Lower the stop loss', 'Raise the price'. */
  what: string;
  digits: number;
  /** 0 = not set (an empty field). */
  value: number;
  onChange(v: number): void;
  /** The value one press away (default: one point, an empty field staying empty). */
  step?(direction: 1 | -1): number;
  /** A line under the field (what the level is worth, when it expires, …). */
  description?: ReactNode;
  error?: string | null;
  placeholder?: string;
  /** Sized for a thumb (the phone): a taller field and 44 px minus / plus buttons. */
  touch?: boolean;
  /** Forwarded to the input, for forms that need a stable hook. */
  'data-testid'?: string;
}

/**
 * The terminal's one kind of price field: minus / price / plus, in the instrument's digits, typing
 * allowed, Arrow Up/Down stepping like the buttons. Order prices, limit prices, stop losses and take
 * profits are all entered with it, in the order ticket and in every modify dialog.
 */
export function PriceStepper({ label, what, digits, value, onChange, step, description, error, placeholder = '—', touch = false, 'data-testid': testId }: PriceStepperProps) {
  const next = (direction: 1 | -1) => (step ? step(direction) : value > 0 ? Math.max(0, Math.round(value * 10 ** digits) + direction) / 10 ** digits : 0);
  const press = (direction: 1 | -1) => onChange(next(direction));
  return (
    <NumberInput
      label={label}
      description={description}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      size={touch ? 'lg' : 'xs'}
      value={value > 0 ? value : ''}
      onChange={(v) => {
        const n = typeof v === 'number' ? v : Number(v);
        onChange(v === '' || !Number.isFinite(n) || n < 0 ? 0 : n);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
          e.preventDefault();
          press(e.key === 'ArrowUp' ? 1 : -1);
        }
      }}
      placeholder={placeholder}
      hideControls
      allowNegative={false}
      decimalScale={digits}
      fixedDecimalScale
      inputMode="decimal"
      error={error || undefined}
      classNames={{ input: 'tp-figure' }}
      styles={{ input: { textAlign: 'center' }, description: { marginTop: 4 } }}
      leftSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label={`Lower the ${what}`} onClick={() => press(-1)}>
          <IconMinus size={14} />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon variant="subtle" size={touch ? 44 : 'sm'} aria-label={`Raise the ${what}`} onClick={() => press(1)}>
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

/** What a level means for the position: how far it is and what it makes or loses there. */
export interface StakeTerms {
  volume: number;
  /** The price the position opens (opened) at; absent: the market's now (Buy at the ask, Sell at the bid). */
  open?: number;
  instrument: Pick<SymbolRecord, 'contractSize' | 'quoteCurrency'>;
}

export interface StopLevelInputProps {
  label: string;
  kind: StopKind;
  side: TradeSide;
  symbol: string;
  digits: number;
  /** 0 = not set. */
  value: number;
  onChange(v: number): void;
  /** What an unset level starts from, and is measured from, instead of the market (a pending order's entry price). */
  reference?: number;
  /** The position's terms: with them, the distance in points and the money at the level are shown under the field. */
  stake?: StakeTerms;
  error?: string | null;
  touch?: boolean;
  'data-testid'?: string;
}

/**
 * A stop-loss or take-profit stepper. It reads the symbol's live quote itself, so the first press
 * lands ten spreads (at least ten points) away on the valid side (see `nudgeStopLevel`); under it,
 * how many points the level is from the price it is checked against, and the profit or loss when
 * it fires, for the volume, in USD, at today's conversion rates. An empty field means none (0).
 */
export function StopLevelInput({ label, kind, side, symbol, digits, value, onChange, reference, stake, error, touch = false, 'data-testid': testId }: StopLevelInputProps) {
  const q = useQuote(symbol)?.quote;
  const bid = q?.bid ?? Number.NaN;
  const ask = q?.ask ?? Number.NaN;
  const what = kind === 'sl' ? 'stop loss' : 'take profit';
  const from = reference ?? referencePrice(side, bid, ask);
  let description: ReactNode = null;
  if (stake) {
    if (!(value > 0)) description = `No ${what}`;
    else {
      const open = stake.open ?? (Number.isFinite(bid) && Number.isFinite(ask) ? openPrice(side, { bid, ask }) : Number.NaN);
      const money = Number.isFinite(open) ? profitAtLevel(side, stake.volume, open, value, { contractSize: stake.instrument.contractSize, quote: stake.instrument.quoteCurrency }, priceLookup((s) => stream.getQuote(s)?.quote)) : null;
      const cents = money === null ? null : centsText(money);
      const sign = money === null || money.isZero() ? 0 : money.isNegative() ? -1 : 1;
      // In the field's description (its size and dimmed colour); the money in its sign's colour.
      description = (
        <span className="tp-figure" data-testid={testId ? `${testId}-stake` : undefined}>
          {Number.isFinite(from) ? `${pointsBetween(value, from, digits).toLocaleString('en-US')} pts` : '— pts'}
          {' · '}
          <span className={sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : undefined}>{cents === null ? '— USD' : `${sign > 0 ? '+' : ''}${formatUsd(cents)} USD`}</span>
        </span>
      );
    }
  }
  return (
    <PriceStepper
      label={label}
      what={what}
      digits={digits}
      value={value}
      onChange={onChange}
      step={(direction) => nudgeStopLevel({ kind, side, current: value, direction, bid, ask, digits, reference })}
      description={description}
      error={error}
      touch={touch}
      data-testid={testId}
    />
  );
}
