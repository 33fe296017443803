import { Button, Center, Group, NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconTrash } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { pendingSide } from '@tradeport/trading-math';
import { useInfiniteQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { callApi, errorMessage } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useAlerts, useCancelPendingOrder, usePendingOrders, useTrades, type OpenTradeRow, type PendingOrderRow } from '../../api/terminal-queries';
import { formatDateTime, formatDecimal, formatPercent, formatPrice, formatUsd, formatVolume } from '../../format/format';
import { useDelayed, useQuote } from '../../stream/hooks';
import { EmptyState, ErrorState, TableSkeleton } from '../../ui/page';
import { toastError } from '../../ui/toast';
import { ModifyOrderModal } from '../modify-order-modal';
import { hasCredit, MarginCallBanner, useLiveAccount } from '../positions-account';
import { useSymbolMap } from '../positions-hooks';
import { DEFAULT_HISTORY_PRESET, HISTORY_PRESETS, presetDates, rangeLabel, type HistoryPreset } from '../history-range';
import { HistoryTotals, type HistoryRange } from '../history-totals';
import { CLOSE_REASON_LABELS, dateRangeMs } from '../positions-live';
import { ORDER_TYPE_LABELS } from '../../format/order-types';
import { SideText, SignedMoney } from '../position-figures';
import classes from './phone-terminal.module.css';
import { PhoneAlerts } from './phone-alerts';
import { useLivePosition } from './position-live';

type Part = 'positions' | 'orders' | 'alerts' | 'history';
const HISTORY_PAGE_ROWS = 50;
const shortTime = (v: string | null) => (v ? formatDateTime(v) : 'GTC');
const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');

/** Balance, Equity, Margin, Free margin and Level in the spec's decimals, live (the desktop footer's figures). */
function AccountFigures() {
  const f = useLiveAccount();
  const delayed = useDelayed();
  const items = [
    { label: 'Balance', value: f ? formatDecimal(f.balance, 4) : '—', id: 'balance', live: false },
    ...(f && hasCredit(f) ? [{ label: 'Credit', value: formatDecimal(f.credit, 4), id: 'credit', live: false }] : []),
    { label: 'Equity', value: f ? formatDecimal(f.equity, 4) : '—', id: 'equity', live: true },
    { label: 'Margin', value: f ? formatDecimal(f.margin, 4) : '—', id: 'margin', live: true },
    { label: 'Free margin', value: f ? formatDecimal(f.freeMargin, 4) : '—', id: 'free-margin', live: true },
    { label: 'Level', value: f && Number(f.margin) > 0 ? formatPercent(f.marginLevel) : '—', id: 'level', live: true },
  ];
  return (
    <dl className={classes.figures} aria-label="Account figures" data-testid="phone-account">
      {items.map((i) => (
        <div key={i.id}>
          <dt>{i.label}</dt>
          <dd className={`tp-figure ${delayed && i.live ? classes.delayed : ''}`} data-testid={`phone-${i.id}`}>
            {i.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One open position: symbol, side and volume, open → current price, live profit. A tap opens its sheet. */
const PositionItem = memo(function PositionItem({ trade, record, known, onOpen }: { trade: OpenTradeRow; record: SymbolRecord | undefined; known: ReadonlyMap<string, SymbolRecord>; onOpen(ticket: number): void }) {
  const live = useLivePosition(trade, record, known);
  const digits = record?.digits ?? 5;
  return (
    <li>
      <button type="button" className={classes.item} onClick={() => onOpen(trade.ticket)} data-testid={`phone-position-${trade.ticket}`}>
        <Text fw={700} size="sm" span>
          {trade.symbol}{' '}
          <Text span size="sm" fw={600}>
            <SideText side={trade.type} /> {formatVolume(trade.volume)}
          </Text>
        </Text>
        <Text fw={700} size="sm" span className={`${classes.itemEnd} tp-figure`}>
          <SignedMoney value={live.profit} delayed={live.old} testId="profit" />
        </Text>
        <Text size="xs" c="dimmed" span className="tp-figure">
          {formatPrice(trade.orginalPrice, digits)} → <span className={live.old ? classes.delayed : undefined}>{formatPrice(live.current, digits)}</span>
        </Text>
        <Text size="xs" c="dimmed" span className={`${classes.itemEnd} tp-figure`}>
          #{trade.ticket}
        </Text>
      </button>
    </li>
  );
});

function PositionsList({ onOpen, onNewOrder }: { onOpen(ticket: number): void; onNewOrder(): void }) {
  const trades = useTrades();
  const known = useSymbolMap();
  if (trades.isPending) return <TableSkeleton rows={4} height={56} />;
  if (trades.isError) return <ErrorState error={trades.error} onRetry={() => void trades.refetch()} title="Could not load your positions" />;
  if (trades.data.data.length === 0)
    return (
      <EmptyState
        message="You don't have any positions"
        action={
          <Button className={classes.touchButton} onClick={onNewOrder}>
            Create New Order
          </Button>
        }
      />
    );
  return (
    <ul className={classes.list} aria-label="Open positions" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {trades.data.data.map((t) => (
        <PositionItem key={t.ticket} trade={t} record={known.get(t.symbol)} known={known} onOpen={onOpen} />
      ))}
    </ul>
  );
}

function OrderItem({ order, record, onModify, onCancel, cancelling }: { order: PendingOrderRow; record: SymbolRecord | undefined; onModify(o: PendingOrderRow): void; onCancel(id: number): void; cancelling: boolean }) {
  const q = useQuote(order.symbol)?.quote;
  const digits = record?.digits ?? 5;
  const buy = pendingSide(order.orderType) === 'buy';
  const market = q && !q.stale ? (buy ? q.ask : q.bid) : null;
  return (
    <li className={classes.item} style={{ cursor: 'default' }} data-testid={`phone-order-${order.orderId}`}>
      <div style={{ minWidth: 0 }}>
        <Text fw={700} size="sm">
          {order.symbol} <span className={buy ? 'tp-buy' : 'tp-sell'}>{ORDER_TYPE_LABELS[order.orderType]}</span> {formatVolume(order.volume)}
        </Text>
        <Text size="xs" c="dimmed" className="tp-figure">
          at {formatPrice(order.price, digits)}
          {order.orderType.endsWith('stop_limit') ? ` · limit ${formatPrice(order.stopLimitPrice, digits)}` : ''} · market {formatPrice(market, digits)}
        </Text>
        <Text size="xs" c="dimmed" className="tp-figure">
          S / L {level(order.stopLoss, digits)} · T / P {level(order.takeProfit, digits)} · #{order.orderId} · until {shortTime(order.expiration)}
        </Text>
      </div>
      <Group gap={0} wrap="nowrap">
        <Button variant="subtle" className={classes.touchButton} miw={48} px={8} onClick={() => onModify(order)} aria-label={`Modify order ${order.orderId}`}>
          <IconAdjustmentsHorizontal size={20} />
        </Button>
        <Button variant="subtle" color="red" className={classes.touchButton} miw={48} px={8} onClick={() => onCancel(order.orderId)} loading={cancelling} aria-label={`Cancel order ${order.orderId}`}>
          <IconTrash size={20} />
        </Button>
      </Group>
    </li>
  );
}

function OrdersList() {
  const orders = usePendingOrders();
  const known = useSymbolMap();
  const cancel = useCancelPendingOrder();
  const [modifying, setModifying] = useState<PendingOrderRow | null>(null);
  if (orders.isPending) return <TableSkeleton rows={3} height={56} />;
  if (orders.isError) return <ErrorState error={orders.error} onRetry={() => void orders.refetch()} title="Could not load your pending orders" />;
  if (orders.data.data.length === 0) return <EmptyState message="You don't have any pending orders" />;
  const onCancel = (id: number) => cancel.mutate(id, { onError: (err) => toastError(errorMessage(err), `Order #${id} was not cancelled`) });
  return (
    <>
      <ul className={classes.list} aria-label="Pending orders" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {orders.data.data.map((o) => (
          <OrderItem key={o.orderId} order={o} record={known.get(o.symbol)} onModify={setModifying} onCancel={onCancel} cancelling={cancel.isPending && cancel.variables === o.orderId} />
        ))}
      </ul>
      <ModifyOrderModal order={modifying} record={modifying ? known.get(modifying.symbol) : undefined} onClose={() => setModifying(null)} fullScreen />
    </>
  );
}

/**
 * Closed positions of a preset span of the trader's days, newest first, a page at a time with the
 * server's cursor (the desktop History's call), under the span's totals.
 */
function HistoryList() {
  const [preset, setPreset] = useState<Exclude<HistoryPreset, 'custom'>>(DEFAULT_HISTORY_PRESET as Exclude<HistoryPreset, 'custom'>);
  const days = presetDates(preset, new Date());
  const range = dateRangeMs(days.from, days.to);
  const shown = range.ok ? { from: range.from, to: range.to } : {};
  return (
    <Stack gap={0}>
      <NativeSelect
        label="Period"
        size="md"
        px="sm"
        pb="xs"
        value={preset}
        onChange={(e) => setPreset(e.currentTarget.value as Exclude<HistoryPreset, 'custom'>)}
        data={HISTORY_PRESETS.filter((p) => p.value !== 'custom').map((p) => ({ value: p.value, label: p.label }))}
        styles={{ input: { minHeight: 44 } }}
        data-testid="phone-period"
      />
      <HistoryTotals range={shown} label={rangeLabel(preset, days.from, days.to)} layout="grid" />
      <ClosedPositions range={shown} />
    </Stack>
  );
}

function ClosedPositions({ range }: { range: HistoryRange }) {
  const known = useSymbolMap();
  const pages = useInfiniteQuery({
    queryKey: [...queryKeys.tradesHistory, 'phone', range.from ?? null, range.to ?? null],
    queryFn: ({ pageParam, signal }) => callApi('getTradesHistory', { ...range, before: pageParam, limit: HISTORY_PAGE_ROWS }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  if (pages.isPending) return <TableSkeleton rows={4} height={56} />;
  if (pages.isError) return <ErrorState error={pages.error} onRetry={() => void pages.refetch()} title="Could not load your history" />;
  const rows = pages.data.pages.flatMap((p) => p.data);
  if (rows.length === 0) return <EmptyState message="No closed positions in this period" />;
  return (
    <Stack gap={0}>
      <ul aria-label="Closed positions" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {rows.map((r) => {
          const digits = known.get(r.symbol)?.digits ?? 5;
          return (
            <li key={r.ID} className={classes.item} style={{ cursor: 'default' }} data-testid={`phone-history-${r.ID}`}>
              <Text fw={700} size="sm" span>
                {r.symbol}{' '}
                <Text span size="sm" fw={600}>
                  <SideText side={r.tradeType} /> {formatVolume(r.volume)}
                </Text>
              </Text>
              <Text fw={700} size="sm" span className={`${classes.itemEnd} tp-figure`}>
                <SignedMoney value={r.profit} />
              </Text>
              <Text size="xs" c="dimmed" span className="tp-figure">
                {formatPrice(r.tradePrice, digits)} → {formatPrice(r.lastPrice, digits)} · swap {formatUsd(r.swap)}{r.commission !== '0.00' && ` · commission ${formatUsd(r.commission)}`}
              </Text>
              <Text size="xs" c="dimmed" span className={classes.itemEnd}>
                {CLOSE_REASON_LABELS[r.closeReason]}
              </Text>
              <Text size="xs" c="dimmed" span className="tp-figure" style={{ gridColumn: '1 / -1', whiteSpace: 'normal' }}>
                #{r.ID}
                {r.partOf !== null && ` (part of #${r.partOf})`} · {shortTime(r.timeStamp)} – {shortTime(r.closeTime)}
              </Text>
            </li>
          );
        })}
      </ul>
      {pages.hasNextPage && (
        <Center p="sm">
          <Button variant="default" className={classes.touchButton} onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
            Show older
          </Button>
        </Center>
      )}
    </Stack>
  );
}

/** The trading table tab: the account's figures, then positions, pending orders, alerts or history. */
export function PhoneTrading({ onOpenPosition, onNewOrder }: { onOpenPosition(ticket: number): void; onNewOrder(): void }) {
  const [part, setPart] = useState<Part>('positions');
  const positions = useTrades().data?.data.length;
  const orders = usePendingOrders().data?.data.length;
  const alerts = useAlerts().data?.data.filter((a) => a.status === 'active').length;
  return (
    <div data-testid="phone-trading">
      <MarginCallBanner />
      <AccountFigures />
      <Group p="sm" pb={0}>
        <SegmentedControl
          fullWidth
          style={{ flex: 1 }}
          size="md"
          aria-label="Trading table"
          value={part}
          onChange={(v) => setPart(v as Part)}
          data={[
            { value: 'positions', label: `Positions${positions ? ` (${positions})` : ''}` },
            { value: 'orders', label: `Pending${orders ? ` (${orders})` : ''}` },
            { value: 'alerts', label: `Alerts${alerts ? ` (${alerts})` : ''}` },
            { value: 'history', label: 'History' },
          ]}
          // Four parts on 375 px: each as wide as its words, the labels a little smaller, still 44 px high.
          styles={{ control: { flex: 'auto' }, label: { minHeight: 44, display: 'flex', alignItems: 'center', justifyContent: 'center', paddingInline: 6, fontSize: 14 } }}
        />
      </Group>
      <div className={classes.section} style={{ paddingLeft: 0, paddingRight: 0 }}>
        {part === 'positions' && <PositionsList onOpen={onOpenPosition} onNewOrder={onNewOrder} />}
        {part === 'orders' && <OrdersList />}
        {part === 'alerts' && <PhoneAlerts />}
        {part === 'history' && <HistoryList />}
      </div>
    </div>
  );
}
