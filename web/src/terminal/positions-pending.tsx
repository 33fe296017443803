import { ActionIcon, Group, Modal, NumberInput, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconTrash } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { pendingSide } from '@tradeport/trading-math';
import { memo, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../api/client';
import { useCancelPendingOrder, useModifyPendingOrder, usePendingOrders, type PendingOrderRow } from '../api/terminal-queries';
import { formatDateTime, formatPrice, formatVolume } from '../format/format';
import { stream } from '../stream/stream';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError } from '../ui/toast';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import { distancePoints, ORDER_TYPE_LABELS, priceLookup } from './positions-live';
import classes from './positions-panel.module.css';
import { ModifyFooter } from './modify-footer';
import { StopLevelInput } from './stop-level-input';

const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');
const shortTime = (v: string | null) => (v ? formatDateTime(v).replace(' UTC', '') : 'GTC');

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
      <Table.Td className="tp-num">{level(order.stopLoss, digits)}</Table.Td>
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

/** An ISO time as the value of a UTC `datetime-local` field, and back. */
const toLocalField = (iso: string | null) => (iso ? iso.slice(0, 16) : '');
const fromLocalField = (v: string) => (v ? Date.parse(`${v}:00Z`) : null);

function ModifyOrderModal({ order, record, onClose }: { order: PendingOrderRow | null; record: SymbolRecord | undefined; onClose(): void }) {
  const modify = useModifyPendingOrder();
  const [price, setPrice] = useState<number | string>('');
  const [limit, setLimit] = useState<number | string>('');
  const [stopLoss, setStopLoss] = useState(0);
  const [takeProfit, setTakeProfit] = useState(0);
  const [expiry, setExpiry] = useState('');
  const { reset } = modify;
  useEffect(() => {
    setPrice(order?.price ?? '');
    setLimit(order && order.stopLimitPrice > 0 ? order.stopLimitPrice : '');
    setStopLoss(order?.stopLoss ?? 0);
    setTakeProfit(order?.takeProfit ?? 0);
    setExpiry(toLocalField(order?.expiration ?? null));
    reset();
  }, [order, reset]);
  const digits = record?.digits ?? 5;
  const stopLimit = order?.orderType.endsWith('stop_limit') ?? false;
  const side = order ? pendingSide(order.orderType) : 'buy';
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={order !== null} onClose={onClose} title={order ? `Modify order #${order.orderId} · ${order.symbol} ${ORDER_TYPE_LABELS[order.orderType]}` : ''} size="sm" centered>
      {order && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            modify.mutate({ orderId: order.orderId, price: Number(price), stopLimitPrice: stopLimit ? Number(limit) : 0, stopLoss, takeProfit, expiration: fromLocalField(expiry) }, { onSuccess: onClose });
          }}
        >
          <Stack gap="sm">
            <NumberInput label={stopLimit ? 'Stop price' : 'Price'} size="xs" value={price} onChange={setPrice} decimalScale={digits} allowNegative={false} hideControls classNames={{ input: 'tp-figure' }} data-testid="order-price" />
            {stopLimit && <NumberInput label="Limit price" size="xs" value={limit} onChange={setLimit} decimalScale={digits} allowNegative={false} hideControls classNames={{ input: 'tp-figure' }} />}
            <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={order.symbol} digits={digits} value={stopLoss} onChange={setStopLoss} />
            <StopLevelInput label="Take profit" kind="tp" side={side} symbol={order.symbol} digits={digits} value={takeProfit} onChange={setTakeProfit} />
            <TextInput label="Expiry (UTC)" description="Empty: good till cancelled" size="xs" type="datetime-local" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)} />
            <ModifyFooter error={modify.isError ? modify.error : null} pending={modify.isPending} onCancel={onClose} errorTestId="modify-order-error" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

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
            <Table.Th>Time</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th className="tp-num">Volume</Table.Th>
            <Table.Th className="tp-num">Price</Table.Th>
            <Table.Th className="tp-num">Limit price</Table.Th>
            <Table.Th className="tp-num">S / L</Table.Th>
            <Table.Th className="tp-num">T / P</Table.Th>
            <Table.Th>Expiry</Table.Th>
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
