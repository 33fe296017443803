import { ActionIcon, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconTrash } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { pendingSide } from '@tradeport/trading-math';
import { memo, useMemo, useState } from 'react';
import { errorMessage } from '../api/client';
import { useCancelPendingOrder, usePendingOrders, type PendingOrderRow } from '../api/terminal-queries';
import { formatLocalTime, formatPrice, formatVolume, timeZoneLabel } from '../format/format';
import { stream } from '../stream/stream';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError } from '../ui/toast';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import { distancePoints, priceLookup } from './positions-live';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import classes from './positions-panel.module.css';
import { ModifyOrderModal } from './modify-order-modal';
import { TrailingMark } from './positions-table';

const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');
const shortTime = (v: string | null) => (v ? formatLocalTime(v) : 'GTC');

/** One pending order with the market's price and its distance in points, following its own symbol only. */
const PendingRow = memo(function PendingRow({ order, record, delayed, onModify, onCancel, cancelling }: { order: PendingOrderRow; record: SymbolRecord | undefined; delayed: boolean; onModify(o: PendingOrderRow): void; onCancel(id: number): void; cancelling: boolean }) {
  useQuotesFrame(useMemo(() => [order.symbol], [order.symbol]));
  const q = stream.getQuote(order.symbol)?.quote;
  const prices = priceLookup(() => q)(order.symbol);
  const digits = record?.digits ?? 5;
  const buy = pendingSide(order.orderType) === 'buy';
  const market = q ? (buy ? q.ask : q.bid) : null;
  const distance = distancePoints(order, prices, digits);
  const old = delayed || !q || q.stale;
  const stopLimit = order.orderType.endsWith('stop_limit');
  return (
    <Table.Tr data-testid={`order-${order.orderId}`}>
      <Table.Td fw={600}>{order.symbol}</Table.Td>
      <Table.Td className="tp-figure" c="dimmed">
        {order.orderId}
      </Table.Td>
      <Table.Td className="tp-figure">{shortTime(order.timeStamp)}</Table.Td>
      <Table.Td>
        <span className={buy ? 'tp-buy' : 'tp-sell'}>{ORDER_TYPE_LABELS[order.orderType]}</span>
      </Table.Td>
      <Table.Td className="tp-num">{formatVolume(order.volume)}</Table.Td>
      <Table.Td className="tp-num">{formatPrice(order.price, digits)}</Table.Td>
      <Table.Td className="tp-num">{stopLimit ? formatPrice(order.stopLimitPrice, digits) : '—'}</Table.Td>
      <Table.Td className="tp-num">
        {order.trailingStop && <TrailingMark trailing={order.trailingStop} />}
        {level(order.stopLoss, digits)}
      </Table.Td>
      <Table.Td className="tp-num">{level(order.takeProfit, digits)}</Table.Td>
      <Table.Td className="tp-figure">{shortTime(order.expiration)}</Table.Td>
      <Table.Td className={`tp-num ${old ? classes.delayed : ''}`} data-testid="market">
        {formatPrice(market, digits)}
      </Table.Td>
      <Table.Td className={`tp-num ${old ? classes.delayed : ''}`} data-testid="distance">
        {distance === null ? '—' : distance.toLocaleString('en-US')}
      </Table.Td>
      <Table.Td className={classes.comment} c="dimmed" title={order.comment || undefined}>
        {order.comment}
      </Table.Td>
      <Table.Td className={classes.actions}>
        <Group gap={2} wrap="nowrap" justify="flex-end">
          <Tooltip label="Modify order">
            <ActionIcon variant="subtle" size="sm" aria-label={`Modify order ${order.orderId}`} onClick={() => onModify(order)}>
              <IconAdjustmentsHorizontal size={15} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Cancel order">
            <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Cancel order ${order.orderId}`} loading={cancelling} onClick={() => onCancel(order.orderId)}>
              <IconTrash size={15} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

/** The Pending Orders tab: type, prices, SL/TP, expiry and the live distance from the market; modify and cancel. */
export function PendingOrdersTable({ delayed }: { delayed: boolean }) {
  const orders = usePendingOrders();
  const known = useSymbolMap();
  const cancel = useCancelPendingOrder();
  const [modifying, setModifying] = useState<PendingOrderRow | null>(null);
  const { mutate } = cancel;
  const onCancel = useMemo(() => (id: number) => mutate(id, { onError: (err) => toastError(errorMessage(err), `Order #${id} was not cancelled`) }), [mutate]);

  if (orders.isPending) return <TableSkeleton rows={3} height={28} />;
  if (orders.isError) return <ErrorState error={orders.error} onRetry={() => void orders.refetch()} title="Could not load your pending orders" />;
  const rows = orders.data.data;
  if (rows.length === 0) return <EmptyState message="You don't have any pending orders" />;
  return (
    <>
      <Table className={classes.table} aria-label="Pending orders" verticalSpacing={4} horizontalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Symbol</Table.Th>
            <Table.Th>Order</Table.Th>
            <Table.Th>Time ({timeZoneLabel()})</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th className="tp-num">Volume</Table.Th>
            <Table.Th className="tp-num">Price</Table.Th>
            <Table.Th className="tp-num">Limit price</Table.Th>
            <Table.Th className="tp-num">S / L</Table.Th>
            <Table.Th className="tp-num">T / P</Table.Th>
            <Table.Th>Expiry ({timeZoneLabel()})</Table.Th>
            <Table.Th className={`tp-num ${classes.liveCol}`}>Market</Table.Th>
            <Table.Th className={`tp-num ${classes.liveCol}`}>Distance (pts)</Table.Th>
            <Table.Th>Comment</Table.Th>
            <Table.Th className={classes.actions}>
              <Text span size="xs" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                Actions
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((o) => (
            <PendingRow key={o.orderId} order={o} record={known.get(o.symbol)} delayed={delayed} onModify={setModifying} onCancel={onCancel} cancelling={cancel.isPending && cancel.variables === o.orderId} />
          ))}
        </Table.Tbody>
      </Table>
      <ModifyOrderModal order={modifying} record={modifying ? known.get(modifying.symbol) : undefined} onClose={() => setModifying(null)} />
    </>
  );
}
