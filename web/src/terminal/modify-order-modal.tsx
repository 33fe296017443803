import { Modal, Stack } from '@mantine/core';
import type { SymbolRecord } from '@tradeport/contracts';
import { pendingEntryPrice, pendingSide, trailingProblem, type Trailing } from '@tradeport/trading-math';
import { useEffect, useState } from 'react';
import type { CallInput } from '../api/client';
import { useModifyPendingOrder, type PendingOrderRow } from '../api/terminal-queries';
import { ModifyFooter } from './modify-footer';
import { fromLocalInput, toLocalInput } from '../format/format';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import { ExpiryInput } from './expiry-input';
import { PriceStepper, StopLevelInput } from './stop-level-input';
import { TrailingStopInput } from './trailing-stop-input';

/** Sends an order's change and says how it went: the trader's own call, or the back office's for a trader. */
export interface OrderModifier {
  mutate(change: CallInput<'modifyPendingOrder'>, options: { onSuccess: () => void }): void;
  reset(): void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

interface ModifyOrderProps {
  order: PendingOrderRow | null;
  record: SymbolRecord | undefined;
  onClose(): void;
  fullScreen?: boolean;
}

/**
 * Modify a pending order: its price (and limit price for a stop-limit), SL, TP, expiry and the
 * trailing stop its position gets (the trader's own change; the back office's keeps it). The
 * desktop's Pending Orders tab and the phone's trading table both open it; on a phone (`fullScreen`)
 * it fills the screen with inputs a thumb can use.
 */
export function ModifyOrderModal(props: ModifyOrderProps) {
  return <PendingOrderModal {...props} modify={useModifyPendingOrder()} />;
}

/** The modify dialog over any way of sending the change (`modify`); `whose` names the order's owner in the title. */
export function PendingOrderModal({ order, record, onClose, fullScreen = false, modify, whose }: ModifyOrderProps & { modify: OrderModifier; whose?: string }) {
  const [price, setPrice] = useState(0);
  const [limit, setLimit] = useState(0);
  const [stopLoss, setStopLoss] = useState(0);
  const [takeProfit, setTakeProfit] = useState(0);
  const [expiry, setExpiry] = useState('');
  const [trailing, setTrailing] = useState<Trailing | null>(null);
  const { reset } = modify;
  useEffect(() => {
    setPrice(order?.price ?? 0);
    setLimit(order?.stopLimitPrice ?? 0);
    setStopLoss(order?.stopLoss ?? 0);
    setTakeProfit(order?.takeProfit ?? 0);
    setExpiry(toLocalInput(order?.expiration ?? null));
    setTrailing(order?.trailingStop ?? null);
    reset();
  }, [order, reset]);
  const digits = record?.digits ?? 5;
  const stopLimit = order?.orderType.endsWith('stop_limit') ?? false;
  const side = order ? pendingSide(order.orderType) : 'buy';
  const fieldSize = fullScreen ? 'lg' : 'xs';
  // The stops sit around the order's own entry price (a stop limit's limit), and are measured from it.
  const entry = order ? pendingEntryPrice(order.orderType, price, limit) : 0;
  const stake = order && record ? { volume: order.volume, open: entry > 0 ? entry : undefined, instrument: record } : undefined;
  // The back office changes a trader's order without its trailing stop, which stays as it is.
  const ownOrder = whose === undefined;
  const trailingIssue = ownOrder && trailing ? trailingProblem(trailing) : null;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close', size: fullScreen ? 44 : undefined }} opened={order !== null} onClose={onClose} title={order ? `Modify ${whose ? `${whose}'s ` : ''}order #${order.orderId} · ${order.symbol} ${ORDER_TYPE_LABELS[order.orderType]}` : ''} size="sm" centered={!fullScreen} fullScreen={fullScreen}>
      {order && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (trailingIssue) return;
            modify.mutate({ orderId: order.orderId, price, stopLimitPrice: stopLimit ? limit : 0, stopLoss, takeProfit, expiration: fromLocalInput(expiry), ...(ownOrder ? { trailingStop: trailing } : {}) }, { onSuccess: onClose });
          }}
        >
          <Stack gap="sm">
            <PriceStepper label={stopLimit ? 'Stop price' : 'Price'} what={stopLimit ? 'stop price' : 'price'} digits={digits} value={price} onChange={setPrice} touch={fullScreen} data-testid="order-price" />
            {stopLimit && <PriceStepper label="Limit price" what="limit price" digits={digits} value={limit} onChange={setLimit} touch={fullScreen} />}
            <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={order.symbol} digits={digits} value={stopLoss} onChange={setStopLoss} reference={entry > 0 ? entry : undefined} stake={stake} touch={fullScreen} data-testid="modify-order-sl" />
            <StopLevelInput label="Take profit" kind="tp" side={side} symbol={order.symbol} digits={digits} value={takeProfit} onChange={setTakeProfit} reference={entry > 0 ? entry : undefined} stake={stake} touch={fullScreen} data-testid="modify-order-tp" />
            <ExpiryInput value={expiry} onChange={setExpiry} size={fieldSize} />
            {ownOrder && <TrailingStopInput value={trailing} onChange={setTrailing} side={side} symbol={order.symbol} digits={digits} pending stopLoss={stopLoss} error={trailingIssue} touch={fullScreen} data-testid="modify-order-trailing" />}
            <ModifyFooter error={modify.isError ? modify.error : null} pending={modify.isPending} onCancel={onClose} errorTestId="modify-order-error" touch={fullScreen} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
