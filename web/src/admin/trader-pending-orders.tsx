import { Button, Group, Modal, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { TraderDetails } from '../api/admin/users';
import { useAdminCancelOrder, useAdminModifyOrder } from '../api/back-office-queries';
import { useCan } from '../api/queries';
import { errorMessage } from '../api/client';
import { formatDateTime, formatPrice, formatVolume } from '../format/format';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import { PendingOrderModal, type OrderModifier } from '../terminal/modify-order-modal';
import { EmptyState } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';
import { accountName, negativeButton, RecordItem, RecordList, RecordTable, usePhone, useSymbolInfo } from './admin-parts';
import { DateTimeText } from './list-page/cells';
import { useRowDialog } from './list-page/row-action';

type Order = TraderDetails['pendingOrders'][number];

/** SL / TP as the tables show them, '—' for none. */
const levels = (sl: number, tp: number, digits: number) => `SL ${sl ? formatPrice(sl, digits) : '—'} · TP ${tp ? formatPrice(tp, digits) : '—'}`;

/** The order's price, and its limit price for a stop-limit: '1.10100 → 1.10050'. */
const priceText = (o: Order, digits: number) => `${formatPrice(o.price, digits)}${o.stopLimitPrice ? ` → ${formatPrice(o.stopLimitPrice, digits)}` : ''}`;

const sideClass = (o: Order) => (o.orderType.startsWith('buy') ? 'tp-buy' : 'tp-sell');

/** A stop-limit whose stop was reached waits as a limit order: the server refuses a change, so only Cancel is offered. */
const MODIFY_BLOCKED = 'It reached its stop and waits as a limit order: it can be cancelled, not changed.';

function OrderActions({ order, onModify, onCancel }: { order: Order; onModify: (o: Order) => void; onCancel: (o: Order) => void }) {
  const modify = (
    <Button size="compact-sm" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onModify(order)} disabled={order.stopTriggered} aria-label={`Modify order ${order.orderId}`}>
      Modify
    </Button>
  );
  return (
    <Group gap={6} justify="flex-end" wrap="nowrap">
      {order.stopTriggered ? (
        <Tooltip label={MODIFY_BLOCKED} multiline w={260} withArrow>
          <span>{modify}</span>
        </Tooltip>
      ) : (
        modify
      )}
      <Button size="compact-sm" variant="subtle" color="red" styles={negativeButton} leftSection={<IconX size={14} aria-hidden />} onClick={() => onCancel(order)} aria-label={`Cancel order ${order.orderId}`}>
        Cancel
      </Button>
    </Group>
  );
}

/**
 * A trader's pending orders on their back-office page, each with Modify (price, limit price, SL, TP,
 * expiry: the terminal's own dialog, checked by the server as the trader's change is) and Cancel
 * (asked first). Both are audited; the trader's terminal shows the change at once.
 */
export function TraderPendingOrders({ details }: { details: TraderDetails }) {
  const info = useSymbolInfo();
  const phone = usePhone();
  const traderId = details.profile.id;
  const name = `${details.profile.firstName} ${details.profile.lastName}`.trim() || `Trader #${traderId}`;
  const modifying = useRowDialog<Order>();
  const cancelling = useRowDialog<Order>();
  const adminModify = useAdminModifyOrder(traderId);
  const cancel = useAdminCancelOrder(traderId);
  const modify: OrderModifier = {
    isPending: adminModify.isPending,
    isError: adminModify.isError,
    error: adminModify.error,
    reset: adminModify.reset,
    mutate: (change, options) =>
      adminModify.mutate(change, {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          options.onSuccess();
        },
      }),
  };
  const confirmCancel = () => {
    const order = cancelling.row;
    if (!order) return;
    cancelling.close();
    cancel.mutateAsync(order.orderId).then(
      (answer) => toastSuccess(answer.message),
      (err: unknown) => toastError(errorMessage(err), `Order #${order.orderId} was not cancelled`),
    );
  };
  const digitsOf = (symbol: string) => info.get(symbol)?.digits ?? 5;
  // Changing or cancelling a trader's order is dealing work; others see the orders only.
  const manages = useCan()('trades.manage');

  let list: ReactNode;
  if (details.pendingOrders.length === 0) list = <EmptyState message="No pending orders." />;
  else if (phone) {
    list = (
      <RecordList label="Pending orders">
        {details.pendingOrders.map((o) => {
          const digits = digitsOf(o.symbol);
          return (
            <RecordItem
              key={o.orderId}
              title={
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {o.symbol}
                  </Text>
                  <Text size="xs" fw={600} className={sideClass(o)}>
                    {ORDER_TYPE_LABELS[o.orderType]}
                  </Text>
                  <Text size="xs" className="tp-figure">
                    {formatVolume(o.volume)}
                  </Text>
                  <Text size="xs" c="dimmed" className="tp-figure">
                    #{o.orderId}
                  </Text>
                </Group>
              }
              subtitle={`${accountName(o)} · placed ${formatDateTime(o.timeStamp)}`}
              aside={
                <Text size="sm" fw={700} className="tp-figure">
                  {priceText(o, digits)}
                </Text>
              }
            >
              <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                {levels(o.stopLoss, o.takeProfit, digits)} · {o.expiration ? `expires ${formatDateTime(o.expiration)}` : 'good till cancelled'}
              </Text>
              {manages && <OrderActions order={o} onModify={modifying.open} onCancel={cancelling.open} />}
            </RecordItem>
          );
        })}
      </RecordList>
    );
  } else {
    list = (
      <RecordTable
        label="Pending orders"
        minWidth={1000}
        head={
          <>
            <Table.Th>Order</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th>Symbol</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th className="tp-num">Volume</Table.Th>
            <Table.Th className="tp-num">Price</Table.Th>
            <Table.Th className="tp-num">SL / TP</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Placed</Table.Th>
            {manages && <Table.Th className="tp-num">Actions</Table.Th>}
          </>
        }
      >
        {details.pendingOrders.map((o) => {
          const digits = digitsOf(o.symbol);
          return (
            <Table.Tr key={o.orderId}>
              <Table.Td className="tp-figure" c="dimmed">
                #{o.orderId}
              </Table.Td>
              <Table.Td className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
                {accountName(o)}
              </Table.Td>
              <Table.Td fw={600}>{o.symbol}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }} fw={600} className={sideClass(o)}>
                {ORDER_TYPE_LABELS[o.orderType]}
              </Table.Td>
              <Table.Td className="tp-num">{formatVolume(o.volume)}</Table.Td>
              <Table.Td className="tp-num">{priceText(o, digits)}</Table.Td>
              <Table.Td className="tp-num" c="dimmed">
                {o.stopLoss ? formatPrice(o.stopLoss, digits) : '—'} / {o.takeProfit ? formatPrice(o.takeProfit, digits) : '—'}
              </Table.Td>
              <Table.Td>{o.expiration ? <DateTimeText value={o.expiration} /> : <Text size="sm" c="dimmed">Good till cancelled</Text>}</Table.Td>
              <Table.Td>
                <DateTimeText value={o.timeStamp} />
              </Table.Td>
              {manages && (
                <Table.Td>
                  <OrderActions order={o} onModify={modifying.open} onCancel={cancelling.open} />
                </Table.Td>
              )}
            </Table.Tr>
          );
        })}
      </RecordTable>
    );
  }

  const target = cancelling.row;
  return (
    <>
      {list}
      <PendingOrderModal order={modifying.opened ? modifying.row : null} record={modifying.row ? info.get(modifying.row.symbol) : undefined} onClose={modifying.close} fullScreen={phone} modify={modify} whose={name} />
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={cancelling.opened} onClose={cancelling.close} title={target ? `Cancel ${name}'s order #${target.orderId}?` : ''} centered>
        {target && (
          <Stack gap="md">
            <SimpleGrid cols={2} spacing="md" verticalSpacing={4} style={{ gridTemplateColumns: 'auto 1fr' }}>
              <Text size="sm" c="dimmed">
                Order
              </Text>
              <Text size="sm" fw={600}>
                {target.symbol} <span className={sideClass(target)}>{ORDER_TYPE_LABELS[target.orderType]}</span> {formatVolume(target.volume)}
              </Text>
              <Text size="sm" c="dimmed">
                Price
              </Text>
              <Text size="sm" fw={600} className="tp-figure">
                {priceText(target, digitsOf(target.symbol))}
              </Text>
              <Text size="sm" c="dimmed">
                Levels
              </Text>
              <Text size="sm" className="tp-figure">
                {levels(target.stopLoss, target.takeProfit, digitsOf(target.symbol))}
              </Text>
            </SimpleGrid>
            <Text size="sm">The order will not fill. {name} sees it cancelled by the back office at once, and the audit log records it. It cannot be undone.</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={cancelling.close}>
                Keep order
              </Button>
              <Button color="red.9" onClick={confirmCancel} data-autofocus>
                Cancel order
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
