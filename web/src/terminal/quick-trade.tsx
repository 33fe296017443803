import { Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import type { Side } from '@tradeport/trading-math';
import { useCallback, useRef } from 'react';
import { create } from 'zustand';
import { errorMessage } from '../api/client';
import { useCurrentAccount } from '../api/trading-accounts';
import { formatPrice } from '../format/format';
import { useAppStore } from '../state/app-store';
import { useQuoteValue } from '../stream/hooks';
import type { QuoteEntry } from '../stream/stream-client';
import { stream } from '../stream/stream';
import { toastError, toastSuccess } from '../ui/toast';
import { DEFAULT_VOLUME, notOfferedMessage, quickOrderRequest, quoteBlock } from './order-rules';
import { newIdempotencyKey, useSendOrder } from './order-send';
import { useTerminalSettings } from './terminal-settings';
import { VolumeStepper } from './volume-stepper';
import classes from './quick-trade.module.css';

/** The quick-trade volume, shared by the widget and the Buy/Sell hotkeys. */
export const useQuickVolume = create<{ volume: number; setVolume(v: number): void }>((set) => ({ volume: DEFAULT_VOLUME, setVolume: (volume) => set({ volume }) }));

/** The volume to trade: never below the instrument's minimum nor above its maximum. */
export function quickVolumeFor(volume: number, record: Pick<SymbolRecord, 'volumeMin' | 'volumeMax'>): number {
  return Math.min(record.volumeMax, Math.max(record.volumeMin, volume));
}

/**
 * Buy or Sell from the widget or a hotkey. With one-click trading off it opens the order dialog
 * prefilled; with it on the market order goes out at once (a new key per press, one order in
 * flight at a time) and a toast confirms it. No order goes out on a closed market or a stale price.
 */
export function useQuickTrade(record: SymbolRecord | undefined) {
  const { oneClickTrading } = useTerminalSettings();
  const openOrderTicket = useAppStore((s) => s.openOrderTicket);
  const account = useCurrentAccount().account;
  const sendOrder = useSendOrder();
  const inFlight = useRef(false);
  const trade = useCallback(
    (side: Side) => {
      if (!record) return;
      const volume = quickVolumeFor(useQuickVolume.getState().volume, record);
      if (!oneClickTrading) {
        openOrderTicket({ symbol: record.Symbol, side, volume });
        return;
      }
      // Refused here as the server would refuse it: the account's type does not offer it.
      const notOffered = notOfferedMessage(account, record.Symbol);
      if (notOffered) {
        toastError(notOffered, 'Order not sent');
        return;
      }
      const block = quoteBlock({ quote: stream.getQuote(record.Symbol)?.quote ?? null });
      if (block) {
        toastError(block.kind === 'closed' ? `${record.Symbol} cannot be traded until its session opens.` : block.message, block.kind === 'closed' ? 'Market Closed' : 'Order not sent');
        return;
      }
      if (inFlight.current) return;
      inFlight.current = true;
      sendOrder.mutate(
        { request: quickOrderRequest(record.Symbol, side, volume), key: newIdempotencyKey() },
        {
          onSuccess: (result) => toastSuccess(result.message, result.kind === 'position' ? `Position #${result.ticket} opened` : 'Order placed'),
          onError: (error) => toastError(errorMessage(error), 'Order refused'),
          onSettled: () => {
            inFlight.current = false;
          },
        },
      );
    },
    [record, account, oneClickTrading, openOrderTicket, sendOrder],
  );
  return { trade, sending: sendOrder.isPending, oneClickTrading };
}

/** What stops the quick-trade buttons, as a primitive (re-rendering on a change of it, not on each tick): the stale message, or null. */
const staleMessage = (entry: QuoteEntry | undefined): string | null => {
  const block = quoteBlock({ quote: entry?.quote ?? null });
  return block?.kind === 'stale' ? block.message : null;
};

/** The price on a quick-trade button: the only part of the widget that changes with each tick. */
function SidePrice({ symbol, side, digits }: { symbol: string; side: Side; digits: number }) {
  const text = useQuoteValue(symbol, (entry) => {
    const q = entry?.quote;
    return formatPrice(staleMessage(entry) !== null ? null : side === 'buy' ? q?.ask : q?.bid, digits);
  });
  return <span className={`tp-figure ${classes.price}`}>{text}</span>;
}

/**
 * The spec's quick trade widget: the bid with SELL, a volume stepper, BUY with the ask. Only the two
 * prices follow the ticks; the buttons, their tooltips and the stepper re-render when the price
 * goes stale or comes back, not on each tick.
 */
export function QuickTrade({ record }: { record: SymbolRecord }) {
  const stale = useQuoteValue(record.Symbol, staleMessage);
  const volume = useQuickVolume((s) => s.volume);
  const setVolume = useQuickVolume((s) => s.setVolume);
  const { trade, sending, oneClickTrading } = useQuickTrade(record);
  const shown = quickVolumeFor(volume, record);
  const button = (side: Side) => {
    const label = side === 'buy' ? 'BUY' : 'SELL';
    return (
      <Tooltip label={stale ?? (oneClickTrading ? 'One-click trading is on: sends a market order at once' : 'Opens the order dialog')} openDelay={400}>
        <UnstyledButton
          className={`${classes.side} ${side === 'buy' ? classes.buy : classes.sell}`}
          onClick={() => trade(side)}
          disabled={stale !== null || sending}
          data-disabled={stale !== null || sending || undefined}
          data-testid={`quick-${side}`}
        >
          <span className={classes.label}>{label}</span>
          <VisuallyHidden> at </VisuallyHidden>
          <SidePrice symbol={record.Symbol} side={side} digits={record.digits} />
        </UnstyledButton>
      </Tooltip>
    );
  };
  return (
    <div className={classes.widget} role="group" aria-label={`Quick trade ${record.Symbol}`} data-testid="quick-trade" data-one-click={oneClickTrading || undefined}>
      {oneClickTrading && (
        <Tooltip label="One-click trading is on: SELL and BUY send market orders at once. Turn it off in the terminal settings.">
          <span className={classes.oneClick} tabIndex={0} data-testid="one-click-on">
            <IconBolt size={14} aria-hidden />
            <span className={classes.oneClickText}>One-click</span>
          </span>
        </Tooltip>
      )}
      {button('sell')}
      <VolumeStepper value={volume} onChange={setVolume} onBlur={() => setVolume(shown)} limits={record} label={null} aria-label="Quick trade volume" w={118} className={classes.volume} />
      {button('buy')}
    </div>
  );
}
