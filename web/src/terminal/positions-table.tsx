import { ActionIcon, Button, CloseButton, Group, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconScissors, IconX } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useCloseTrade, useTrades, type OpenTradeRow } from '../api/terminal-queries';
import { formatLocalTime, formatPrice, formatUsd, formatVolume, timeZoneLabel } from '../format/format';
import { useAppStore } from '../state/app-store';
import { stream } from '../stream/stream';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';
import { canClosePart } from './order-rules';
import { usePositionSelection, useQuotesFrame, useSymbolMap } from './positions-hooks';
import { SideText, SignedMoney } from './position-figures';
import { priceLookup, profitText, symbolsNeeded } from './positions-live';
import classes from './positions-panel.module.css';
import { useTerminalSettings } from './terminal-settings';

const ModifyPositionModal = lazy(() => import('./modify-position-modal').then((m) => ({ default: m.ModifyPositionModal })));
const ClosePartModal = lazy(() => import('./close-part').then((m) => ({ default: m.ClosePartModal })));

const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');

/** The words for a position's trailing stop, as its mark's tooltip says them. */
const trailingText = (t: { distance: number; activation: number; step: number }) =>
  `Trailing stop: ${t.distance.toLocaleString('en-US')} pts behind the price${t.activation > 0 ? `, from ${t.activation.toLocaleString('en-US')} pts of profit` : ''}, in steps of ${t.step.toLocaleString('en-US')} pts`;

/** "TS" before a stop loss its trailing stop moves (a pending order's: the stop loss its position will trail). */
export function TrailingMark({ trailing }: { trailing: { distance: number; activation: number; step: number } }) {
  const text = trailingText(trailing);
  return (
    <Tooltip label={text}>
      <span className={classes.trailing} aria-label={text} data-testid="ts">
        TS
      </span>
    </Tooltip>
  );
}

interface RowProps {
  trade: OpenTradeRow;
  record: SymbolRecord | undefined;
  known: ReadonlyMap<string, SymbolRecord>;
  selected: boolean;
  delayed: boolean;
  onSelect(ticket: number): void;
  onClose(ticket: number): void;
  onModify(trade: OpenTradeRow): void;
  onClosePart(trade: OpenTradeRow): void;
}

/** Whether a symbol has a streamed quote yet and whether it is fresh; re-renders only when that changes. */
function useQuoteFreshness(symbol: string): 'live' | 'waiting' | 'stale' {
  const subscribe = useCallback((onChange: () => void) => stream.subscribeQuote(symbol, onChange), [symbol]);
  return useSyncExternalStore(subscribe, () => {
    const entry = stream.getQuote(symbol)?.quote;
    return !entry ? 'waiting' : entry.stale ? 'stale' : 'live';
  });
}

/**
 * The position's current price (bid for a Buy, ask for a Sell), re-rendered at most once a frame
 * when its own symbol ticks; without a streamed quote yet, the server's price of the last read.
 */
function LivePrice({ trade, digits }: { trade: OpenTradeRow; digits: number }) {
  useQuotesFrame(useMemo(() => [trade.symbol], [trade.symbol]));
  const entry = stream.getQuote(trade.symbol)?.quote;
  const buy = trade.type === 'Buy';
  return <>{formatPrice(entry ? (buy ? entry.bid : entry.ask) : buy ? trade.bid : trade.ask, digits)}</>;
}

/** The position's floating profit at streamed prices (its symbol and the rate it converts at), at most once a frame. */
function LiveProfit({ trade, record, known, old }: { trade: OpenTradeRow; record: SymbolRecord | undefined; known: ReadonlyMap<string, SymbolRecord>; old: boolean }) {
  useQuotesFrame(useMemo(() => symbolsNeeded(record, known), [record, known]));
  const entry = stream.getQuote(trade.symbol)?.quote;
  const profit = entry ? profitText(trade, record, priceLookup((s) => stream.getQuote(s)?.quote)) : trade.profit;
  return <SignedMoney value={profit} delayed={old} testId="profit" />;
}

/**
 * One open position. Only its current price and profit follow the ticks (of its own symbol and the
 * rate its profit converts at), each at most once a frame: the rest of the row — its buttons and
 * their tooltips — renders again only when the position itself or the quote's freshness changes.
 */
const PositionRow = memo(function PositionRow({ trade, record, known, selected, delayed, onSelect, onClose, onModify, onClosePart }: RowProps) {
  const freshness = useQuoteFreshness(trade.symbol);
  const digits = record?.digits ?? 5;
  const old = delayed || freshness !== 'live';
  const splittable = canClosePart(trade.volume, record);
  return (
    <Table.Tr
      className={classes.row}
      data-selected={selected || undefined}
      aria-selected={selected}
      tabIndex={0}
      data-testid={`position-${trade.ticket}`}
      // Why the figures are not live: the socket is down, no quote yet, or the quote is stale.
      data-delayed={!old ? undefined : delayed ? 'offline' : freshness}
      onClick={() => onSelect(trade.ticket)}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(trade.ticket);
        }
      }}
    >
      <Table.Td fw={600}>{trade.symbol}</Table.Td>
      <Table.Td className="tp-figure" c="dimmed">
        {trade.ticket}
      </Table.Td>
      <Table.Td className="tp-figure">{formatLocalTime(trade.timeStamp)}</Table.Td>
      <Table.Td>
        <SideText side={trade.type} />
      </Table.Td>
      <Table.Td className="tp-num">{formatVolume(trade.volume)}</Table.Td>
      <Table.Td className="tp-num">{formatPrice(trade.orginalPrice, digits)}</Table.Td>
      <Table.Td className="tp-num" data-testid="sl">
        {trade.trailingStop && <TrailingMark trailing={trade.trailingStop} />}
        {level(trade.stopLoss, digits)}
      </Table.Td>
      <Table.Td className="tp-num" data-testid="tp">
        {level(trade.takeProfit, digits)}
      </Table.Td>
      <Table.Td className={`tp-num ${old ? classes.delayed : ''}`} data-testid="current">
        <LivePrice trade={trade} digits={digits} />
      </Table.Td>
      <Table.Td className="tp-num">{formatUsd(trade.swap)}</Table.Td>
      <Table.Td className="tp-num" data-testid="commission">
        {formatUsd(trade.commission)}
      </Table.Td>
      <Table.Td className="tp-num" fw={600}>
        <LiveProfit trade={trade} record={record} known={known} old={old} />
      </Table.Td>
      <Table.Td className={classes.comment} c="dimmed" title={trade.comment || undefined}>
        {trade.comment}
      </Table.Td>
      <Table.Td className={classes.actions}>
        <Group gap={2} wrap="nowrap" justify="flex-end">
          <Tooltip label="Modify stop loss / take profit">
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`Modify position ${trade.ticket}`}
              onClick={(e) => {
                e.stopPropagation();
                onModify(trade);
              }}
            >
              <IconAdjustmentsHorizontal size={15} />
            </ActionIcon>
          </Tooltip>
          {/* data-disabled, not disabled: a disabled button gets no pointer events, and the tooltip would never say why. */}
          <Tooltip label={splittable ? 'Close part of the position' : 'Too small to close in part'}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`Close part of position ${trade.ticket}`}
              data-disabled={!splittable || undefined}
              aria-disabled={!splittable || undefined}
              onClick={(e) => {
                e.stopPropagation();
                if (splittable) onClosePart(trade);
              }}
            >
              <IconScissors size={15} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Close position">
            <ActionIcon
              variant="subtle"
              color="red"
              size="sm"
              aria-label={`Close position ${trade.ticket}`}
              onClick={(e) => {
                e.stopPropagation();
                onClose(trade.ticket);
              }}
            >
              <IconX size={15} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

export function PositionsHead() {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Symbol</Table.Th>
        <Table.Th>Ticket</Table.Th>
        <Table.Th>Time ({timeZoneLabel()})</Table.Th>
        <Table.Th>Type</Table.Th>
        <Table.Th className="tp-num">Volume</Table.Th>
        <Table.Th className="tp-num">Price</Table.Th>
        <Table.Th className="tp-num">S / L</Table.Th>
        <Table.Th className="tp-num">T / P</Table.Th>
        <Table.Th className={`tp-num ${classes.liveCol}`}>Current price</Table.Th>
        <Table.Th className="tp-num">Swap</Table.Th>
        <Table.Th className="tp-num">Commission</Table.Th>
        <Table.Th className={`tp-num ${classes.liveCol}`}>Profit</Table.Th>
        <Table.Th>Comment</Table.Th>
        <Table.Th className={classes.actions}>
          <span className="sr-only" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            Actions
          </span>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * The Positions tab: one row per open position with live price and profit, close and modify per
 * row; a refused close brings the row back with the server's message under it.
 */
export function PositionsTable({ delayed }: { delayed: boolean }) {
  const trades = useTrades();
  const known = useSymbolMap();
  const close = useCloseTrade();
  const selected = usePositionSelection((s) => s.selectedTicket);
  const select = usePositionSelection((s) => s.selectTicket);
  const setCloser = usePositionSelection((s) => s.setCloser);
  const openOrderTicket = useAppStore((s) => s.openOrderTicket);
  const selectedSymbol = useAppStore((s) => s.selectedSymbol);
  const [modifying, setModifying] = useState<OpenTradeRow | null>(null);
  const [parting, setParting] = useState<OpenTradeRow | null>(null);
  // Like Modify's, the dialog mounts at the first use.
  const [partUsed, setPartUsed] = useState(false);
  if (parting && !partUsed) setPartUsed(true);
  // The dialog mounts at the first Modify, and stays for its transitions.
  const [modifyUsed, setModifyUsed] = useState(false);
  if (modifying && !modifyUsed) setModifyUsed(true);
  const [refusals, setRefusals] = useState<ReadonlyMap<number, string>>(new Map());
  const [confirming, setConfirming] = useState<number | null>(null);
  const { oneClickTrading } = useTerminalSettings();
  const { mutate } = close;

  const closeNow = useCallback(
    (ticket: number) => {
      setRefusals((m) => {
        if (!m.has(ticket)) return m;
        const next = new Map(m);
        next.delete(ticket);
        return next;
      });
      mutate(ticket, {
        // The server's own words: the price it closed at and the profit booked.
        onSuccess: (answer) => toastSuccess(answer.message, 'Position closed'),
        onError: (err) => {
          const message = errorMessage(err);
          setRefusals((m) => new Map(m).set(ticket, message));
          toastError(message, `Position #${ticket} was not closed`);
        },
      });
    },
    [mutate],
  );
  // The row's × and Shift+C: at once with one-click trading on, else after a confirmation.
  const closeTicket = useMemo(() => (ticket: number) => (oneClickTrading ? closeNow(ticket) : setConfirming(ticket)), [oneClickTrading, closeNow]);
  useEffect(() => {
    setCloser(closeTicket);
    return () => setCloser(null);
  }, [closeTicket, setCloser]);
  // A selection that left the list (closed here, by a stop or elsewhere) is no longer one the hotkey may close.
  const list = trades.data?.data;
  useEffect(() => {
    if (selected !== null && list && !list.some((t) => t.ticket === selected)) select(null);
  }, [list, selected, select]);

  if (trades.isPending) return <TableSkeleton rows={4} height={28} />;
  if (trades.isError) return <ErrorState error={trades.error} onRetry={() => void trades.refetch()} title="Could not load your positions" />;
  const rows = trades.data.data;
  if (rows.length === 0) {
    return (
      <EmptyState
        message="You don't have any positions"
        action={
          <Button size="xs" onClick={() => openOrderTicket({ symbol: selectedSymbol ?? 'EURUSD' })}>
            Create New Order
          </Button>
        }
      />
    );
  }
  return (
    <>
      <Table className={classes.table} aria-label="Open positions" verticalSpacing={4} horizontalSpacing="xs" highlightOnHover={false} stickyHeader={false}>
        <PositionsHead />
        <Table.Tbody>
          {rows.map((t) => (
            <PositionRowWithRefusal key={t.ticket} refusal={refusals.get(t.ticket)} onDismiss={() => setRefusals((m) => new Map([...m].filter(([k]) => k !== t.ticket)))}>
              <PositionRow trade={t} record={known.get(t.symbol)} known={known} selected={selected === t.ticket} delayed={delayed} onSelect={select} onClose={closeTicket} onModify={setModifying} onClosePart={setParting} />
            </PositionRowWithRefusal>
          ))}
        </Table.Tbody>
      </Table>
      {modifyUsed && (
        <Suspense fallback={null}>
          <ModifyPositionModal trade={modifying} record={modifying ? known.get(modifying.symbol) : undefined} onClose={() => setModifying(null)} />
        </Suspense>
      )}
      {partUsed && (
        <Suspense fallback={null}>
          <ClosePartModal trade={(parting && rows.find((t) => t.ticket === parting.ticket)) ?? null} record={parting ? known.get(parting.symbol) : undefined} known={known} onClose={() => setParting(null)} />
        </Suspense>
      )}
      <ConfirmClose
        trade={rows.find((t) => t.ticket === confirming) ?? null}
        known={known}
        onCancel={() => setConfirming(null)}
        onConfirm={(ticket) => {
          setConfirming(null);
          closeNow(ticket);
        }}
      />
    </>
  );
}

/**
 * Asks before a close (one-click trading off): the position, and its profit at the prices on
 * screen, which the server's close price may differ from by the time it arrives.
 */
function ConfirmClose({ trade, known, onCancel, onConfirm }: { trade: OpenTradeRow | null; known: ReadonlyMap<string, SymbolRecord>; onCancel(): void; onConfirm(ticket: number): void }) {
  useQuotesFrame(trade ? [trade.symbol] : []);
  const record = trade ? known.get(trade.symbol) : undefined;
  const profit = trade ? profitText(trade, record, priceLookup((s) => stream.getQuote(s)?.quote)) : null;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={trade !== null} onClose={onCancel} title={trade ? `Close position #${trade.ticket}?` : ''} size="sm" centered>
      {trade && (
        <Stack gap="md">
          <div>
            <Text size="sm">
              {trade.fullSymbol || trade.symbol} <SideText side={trade.type} /> {formatVolume(trade.volume)} at the market price. Profit now{' '}
              <Text span fw={700} className="tp-figure">
                <SignedMoney value={profit} /> USD
              </Text>
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              At the prices shown now; it closes at the server&apos;s price when the request arrives.
            </Text>
          </div>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={onCancel}>
              Cancel
            </Button>
            <Button size="xs" color="red.9" onClick={() => onConfirm(trade.ticket)} data-autofocus>
              Close position
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function PositionRowWithRefusal({ refusal, onDismiss, children }: { refusal: string | undefined; onDismiss(): void; children: ReactNode }) {
  return (
    <>
      {children}
      {refusal && (
        <Table.Tr className={classes.errorRow}>
          <Table.Td colSpan={14}>
            <Group gap="xs" justify="space-between" wrap="nowrap">
              <Text size="xs" c="var(--tp-negative)" fw={600} role="alert" data-testid="close-refusal">
                Not closed: {refusal}
              </Text>
              <CloseButton size="sm" aria-label="Dismiss" onClick={onDismiss} icon={<IconX size={14} />} />
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
