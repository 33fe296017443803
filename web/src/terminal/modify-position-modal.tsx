import { Modal, Stack, Text } from '@mantine/core';
import type { SymbolRecord } from '@tradeport/contracts';
import { trailingProblem, type Trailing } from '@tradeport/trading-math';
import { useEffect, useState } from 'react';
import { useModifyTrade, useTrades, type OpenTradeRow } from '../api/terminal-queries';
import { formatPrice, formatVolume } from '../format/format';
import { useQuote } from '../stream/hooks';
import { ModifyFooter } from './modify-footer';
import { StopLevelInput } from './stop-level-input';
import { TrailingStopInput } from './trailing-stop-input';

/*
 * The Positions tab's Modify dialog (`positions-table.tsx` downloads it when a row's Modify is
 * first pressed): a position's stop loss, take profit and trailing stop.
 */

/** The price a position closes at now (bid for a Buy, ask for a Sell), live. */
function CurrentPrice({ symbol, side, digits }: { symbol: string; side: 'buy' | 'sell'; digits: number }) {
  const q = useQuote(symbol)?.quote;
  return <span className="tp-figure">{formatPrice(side === 'buy' ? q?.bid : q?.ask, digits)}</span>;
}

/** The stop loss, take profit and trailing stop of one position, with the server's refusal shown in the dialog. */
export function ModifyPositionModal({ trade, record, onClose }: { trade: OpenTradeRow | null; record: SymbolRecord | undefined; onClose(): void }) {
  const modify = useModifyTrade();
  const [edited, setStopLoss] = useState<number | null>(null);
  const [takeProfit, setTakeProfit] = useState(0);
  const [trailing, setTrailing] = useState<Trailing | null>(null);
  const { reset } = modify;
  useEffect(() => {
    setStopLoss(null);
    setTakeProfit(trade?.takeProfit ?? 0);
    setTrailing(trade?.trailingStop ?? null);
    reset();
  }, [trade, reset]);
  const trailingIssue = trailing ? trailingProblem(trailing) : null;
  // Until it is edited, the stop loss is the position's as the list has it now: a trailing stop
  // may move it while the dialog is open, and saving must not move it back.
  const live = useTrades().data?.data.find((t) => t.ticket === trade?.ticket);
  const stopLoss = edited ?? live?.stopLoss ?? trade?.stopLoss ?? 0;
  const side = trade?.type === 'Buy' ? 'buy' : 'sell';
  const digits = record?.digits ?? 5;
  // Each level shows what the position makes or loses there, from its own open price.
  const stake = trade && record ? { volume: trade.volume, open: trade.orginalPrice, instrument: record } : undefined;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={trade !== null} onClose={onClose} title={trade ? `Modify #${trade.ticket} · ${trade.symbol} ${trade.type} ${formatVolume(trade.volume)}` : ''} size="sm" centered>
      {trade && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (trailingIssue) return;
            modify.mutate({ ticket: trade.ticket, stopLoss, takeProfit, trailingStop: trailing }, { onSuccess: onClose });
          }}
        >
          <Stack gap="sm">
            <Text size="xs" c="dimmed">
              Opened at <span className="tp-figure">{formatPrice(trade.orginalPrice, digits)}</span>, now <CurrentPrice symbol={trade.symbol} side={side} digits={digits} /> ({side === 'buy' ? 'bid' : 'ask'}). Leave a level empty to remove it.
            </Text>
            <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={trade.symbol} digits={digits} value={stopLoss} onChange={setStopLoss} stake={stake} data-testid="modify-sl" />
            <StopLevelInput label="Take profit" kind="tp" side={side} symbol={trade.symbol} digits={digits} value={takeProfit} onChange={setTakeProfit} stake={stake} data-testid="modify-tp" />
            <TrailingStopInput value={trailing} onChange={setTrailing} side={side} symbol={trade.symbol} digits={digits} open={trade.orginalPrice} stopLoss={stopLoss} error={trailingIssue} data-testid="modify-trailing" />
            <ModifyFooter error={modify.isError ? modify.error : null} pending={modify.isPending} onCancel={onClose} errorTestId="modify-error" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
