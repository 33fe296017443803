import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconAlertTriangle, IconArrowRight, IconChartCandle, IconLock, IconPlus, IconScissors, IconX } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { trailingProblem, type Trailing } from '@tradeport/trading-math';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client';
import { useCloseTrade, useModifyTrade, useTrades, type OpenTradeRow } from '../../api/terminal-queries';
import { formatDateTime, formatPrice, formatUsd, formatVolume } from '../../format/format';
import { useQuote } from '../../stream/hooks';
import { toastSuccess } from '../../ui/toast';
import { useSymbolMap } from '../positions-hooks';
import { SideText, SignedMoney } from '../position-figures';
import { ClosePartForm } from '../close-part';
import { canClosePart } from '../order-rules';
import { StopLevelInput } from '../stop-level-input';
import { TrailingStopInput } from '../trailing-stop-input';
import classes from './phone-terminal.module.css';
import { useLivePosition } from './position-live';

const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');

type Notice = { kind: 'closed'; sessions: string[] } | { kind: 'refused'; message: string } | null;

/**
 * A position's sheet (spec: 45% high): when and what it is, its live profit, open → current price,
 * S / L, swap and T / P (and its commission, if charged); Close Position, Close Part (some of its volume), Modify (its S / L and T / P, right here), New Order and Chart.
 * The position is kept on screen while its close is under way (the list drops it at once).
 */
export function PositionSheetContent({ ticket, onNewOrder, onChart, onDone }: { ticket: number; onNewOrder(symbol: string): void; onChart(symbol: string): void; onDone(): void }) {
  const trades = useTrades();
  const known = useSymbolMap();
  const listed = trades.data?.data.find((t) => t.ticket === ticket);
  const [kept, setKept] = useState<OpenTradeRow | undefined>(listed);
  useEffect(() => {
    if (listed) setKept(listed);
  }, [listed]);
  const trade = listed ?? kept;
  if (!trade) {
    if (trades.isPending) return <Text size="sm">Loading the position…</Text>;
    return (
      <Stack gap="sm">
        <Text size="sm">Position #{ticket} is no longer open.</Text>
        <Button className={classes.touchButton} variant="default" onClick={onDone}>
          OK
        </Button>
      </Stack>
    );
  }
  return <PositionDetails trade={trade} record={known.get(trade.symbol)} known={known} stillOpen={listed !== undefined} onNewOrder={onNewOrder} onChart={onChart} onDone={onDone} />;
}

function PositionDetails({
  trade,
  record,
  known,
  stillOpen,
  onNewOrder,
  onChart,
  onDone,
}: {
  trade: OpenTradeRow;
  record: SymbolRecord | undefined;
  known: ReadonlyMap<string, SymbolRecord>;
  stillOpen: boolean;
  onNewOrder(symbol: string): void;
  onChart(symbol: string): void;
  onDone(): void;
}) {
  const live = useLivePosition(trade, record, known);
  const q = useQuote(trade.symbol)?.quote;
  const close = useCloseTrade();
  const [notice, setNotice] = useState<Notice>(null);
  const [modifying, setModifying] = useState(false);
  const [parting, setParting] = useState(false);
  const digits = record?.digits ?? 5;

  const closePosition = () => {
    setNotice(null);
    // Spec: Close Position does nothing while the market is closed; here it says so.
    if (q && !q.open) {
      setNotice({ kind: 'closed', sessions: record?.sessions ?? [] });
      return;
    }
    close.mutate(trade.ticket, {
      // The server's own words: the price it closed at and the profit booked.
      onSuccess: (answer) => {
        toastSuccess(answer.message, 'Position closed');
        onDone();
      },
      onError: (err) => {
        const message = errorMessage(err);
        setNotice(message === 'Market Closed' ? { kind: 'closed', sessions: record?.sessions ?? [] } : { kind: 'refused', message });
      },
    });
  };

  if (parting && stillOpen)
    return (
      <Stack gap="sm" data-testid="sheet-close-part">
        <Text fw={700}>Close part of #{trade.ticket}</Text>
        <ClosePartForm trade={trade} record={record} known={known} touch onDone={() => setParting(false)} onCancel={() => setParting(false)} />
      </Stack>
    );
  if (modifying) return <ModifyStops trade={trade} record={record} digits={digits} onCancel={() => setModifying(false)} />;
  return (
    <Stack gap="sm" data-testid="position-sheet-details">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" className="tp-figure" data-testid="sheet-time">
            {formatDateTime(trade.timeStamp)} · #{trade.ticket}
          </Text>
          <Text fw={700} size="lg" lh={1.25}>
            {trade.fullSymbol || trade.symbol}
          </Text>
          <Text size="sm" fw={600}>
            <SideText side={trade.type} /> {formatVolume(trade.volume)}
          </Text>
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text size="xs" c="dimmed">
            Profit
          </Text>
          <Text fw={700} size="xl" className="tp-figure">
            <SignedMoney value={live.profit} delayed={live.old} testId="sheet-profit" />
          </Text>
        </div>
      </Group>
      <Group gap={6} wrap="nowrap" className="tp-figure" data-testid="sheet-prices">
        <Text size="sm" fw={600}>
          {formatPrice(trade.orginalPrice, digits)}
        </Text>
        <IconArrowRight size={14} aria-label="to" />
        <Text size="sm" fw={600} className={live.old ? classes.delayed : undefined} data-testid="sheet-current">
          {formatPrice(live.current, digits)}
        </Text>
      </Group>
      <dl className={`${classes.facts} tp-figure`}>
        <div>
          <dt>S / L</dt>
          <dd data-testid="sheet-sl">
            {level(trade.stopLoss, digits)}
            {trade.trailingStop && (
              <Text span size="xs" c="dimmed" display="block" data-testid="sheet-ts">
                Trailing {trade.trailingStop.distance.toLocaleString('en-US')} pts
              </Text>
            )}
          </dd>
        </div>
        <div>
          <dt>Swap</dt>
          <dd>{formatUsd(trade.swap)}</dd>
        </div>
        <div>
          <dt>T / P</dt>
          <dd data-testid="sheet-tp">{level(trade.takeProfit, digits)}</dd>
        </div>
        {trade.commission !== '0.00' && (
          <div>
            <dt>Commission</dt>
            <dd>{formatUsd(trade.commission)}</dd>
          </div>
        )}
      </dl>
      {notice?.kind === 'closed' && (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="Market Closed" role="alert" data-testid="sheet-market-closed">
          {trade.symbol} cannot be closed until its session opens{notice.sessions.length ? ` (${notice.sessions.join(', ')})` : ''}.
        </Alert>
      )}
      {notice?.kind === 'refused' && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Not closed" role="alert" data-testid="sheet-close-refused">
          <Text size="sm" c="var(--mantine-color-error)">
            {notice.message}
          </Text>
        </Alert>
      )}
      <SimpleGrid cols={2} spacing="sm">
        <Button className={classes.touchButton} style={{ gridColumn: '1 / -1' }} color="red.9" leftSection={<IconX size={18} />} onClick={closePosition} loading={close.isPending} disabled={!stillOpen && !close.isPending}>
          Close Position
        </Button>
        <Button className={classes.touchButton} variant="default" leftSection={<IconScissors size={18} />} onClick={() => setParting(true)} disabled={!stillOpen || !canClosePart(trade.volume, record)}>
          Close Part
        </Button>
        <Button className={classes.touchButton} variant="default" leftSection={<IconAdjustmentsHorizontal size={18} />} onClick={() => setModifying(true)} disabled={!stillOpen}>
          Modify
        </Button>
        <Button className={classes.touchButton} variant="default" leftSection={<IconPlus size={18} />} onClick={() => onNewOrder(trade.symbol)}>
          New Order
        </Button>
        <Button className={classes.touchButton} variant="default" leftSection={<IconChartCandle size={18} />} onClick={() => onChart(trade.symbol)}>
          Chart
        </Button>
      </SimpleGrid>
    </Stack>
  );
}

/** The position's stop loss, take profit and trailing stop, with the desktop's steppers and the server's refusal. */
function ModifyStops({ trade, record, digits, onCancel }: { trade: OpenTradeRow; record: SymbolRecord | undefined; digits: number; onCancel(): void }) {
  const modify = useModifyTrade();
  const [edited, setStopLoss] = useState<number | null>(null);
  const [takeProfit, setTakeProfit] = useState(trade.takeProfit);
  const [trailing, setTrailing] = useState<Trailing | null>(trade.trailingStop);
  // Until it is edited, the stop loss is the position's now: its trailing stop may move it meanwhile, and saving must not move it back.
  const stopLoss = edited ?? trade.stopLoss;
  const trailingIssue = trailing ? trailingProblem(trailing) : null;
  const side = trade.type === 'Buy' ? 'buy' : 'sell';
  const stake = record ? { volume: trade.volume, open: trade.orginalPrice, instrument: record } : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (trailingIssue) return;
        modify.mutate(
          { ticket: trade.ticket, stopLoss, takeProfit, trailingStop: trailing },
          {
            onSuccess: () => {
              toastSuccess(`Stop loss, take profit and trailing stop of #${trade.ticket} saved.`, 'Position modified');
              onCancel();
            },
          },
        );
      }}
      data-testid="sheet-modify"
    >
      <Stack gap="sm">
        <Text fw={700}>
          Modify #{trade.ticket} · {trade.symbol} <SideText side={trade.type} /> {formatVolume(trade.volume)}
        </Text>
        <Text size="xs" c="dimmed">
          Leave a level empty to remove it.
        </Text>
        <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={trade.symbol} digits={digits} value={stopLoss} onChange={setStopLoss} stake={stake} touch data-testid="modify-sl" />
        <StopLevelInput label="Take profit" kind="tp" side={side} symbol={trade.symbol} digits={digits} value={takeProfit} onChange={setTakeProfit} stake={stake} touch data-testid="modify-tp" />
        <TrailingStopInput value={trailing} onChange={setTrailing} side={side} symbol={trade.symbol} digits={digits} open={trade.orginalPrice} stopLoss={stopLoss} error={trailingIssue} touch data-testid="modify-trailing" />
        {modify.isError && (
          <Alert color="red" variant="light" role="alert" data-testid="modify-refused" p="xs">
            <Text size="sm">{errorMessage(modify.error)}</Text>
          </Alert>
        )}
        <SimpleGrid cols={2} spacing="sm">
          <Button className={classes.touchButton} variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button className={classes.touchButton} type="submit" loading={modify.isPending}>
            Save
          </Button>
        </SimpleGrid>
      </Stack>
    </form>
  );
}
