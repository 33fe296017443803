import { Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import type { SymbolRecord } from '@tradeport/contracts';
import { pendingSide } from '@tradeport/trading-math';
import { useEffect, useState } from 'react';
import { useModifyPendingOrder, type PendingOrderRow } from '../api/terminal-queries';
import { ModifyFooter } from './modify-footer';
import { fromLocalInput, timeZoneLabel, toLocalInput } from '../format/format';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import { StopLevelInput } from './stop-level-input';

/** An ISO time as the value of a UTC `datetime-local` field, and back. */

/**
 * Modify a pending order: its price (and limit price for a stop-limit), SL, TP and expiry. The
 * desktop's Pending Orders tab and the phone's trading table both open it; on a phone (`fullScreen`)
 * it fills the screen with inputs a thumb can use.
 */
export function ModifyOrderModal({ order, record, onClose, fullScreen = false }: { order: PendingOrderRow | null; record: SymbolRecord | undefined; onClose(): void; fullScreen?: boolean }) {
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
    setExpiry(toLocalInput(order?.expiration ?? null));
    reset();
  }, [order, reset]);
  const digits = record?.digits ?? 5;
  const stopLimit = order?.orderType.endsWith('stop_limit') ?? false;
  const side = order ? pendingSide(order.orderType) : 'buy';
  const fieldSize = fullScreen ? 'lg' : 'xs';
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close', size: fullScreen ? 44 : undefined }} opened={order !== null} onClose={onClose} title={order ? `Modify order #${order.orderId} · ${order.symbol} ${ORDER_TYPE_LABELS[order.orderType]}` : ''} size="sm" centered={!fullScreen} fullScreen={fullScreen}>
      {order && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            modify.mutate({ orderId: order.orderId, price: Number(price), stopLimitPrice: stopLimit ? Number(limit) : 0, stopLoss, takeProfit, expiration: fromLocalInput(expiry) }, { onSuccess: onClose });
          }}
        >
          <Stack gap="sm">
            <NumberInput label={stopLimit ? 'Stop price' : 'Price'} size={fieldSize} value={price} onChange={setPrice} decimalScale={digits} fixedDecimalScale allowNegative={false} hideControls classNames={{ input: 'tp-figure' }} data-testid="order-price" />
            {stopLimit && <NumberInput label="Limit price" size={fieldSize} value={limit} onChange={setLimit} decimalScale={digits} fixedDecimalScale allowNegative={false} hideControls classNames={{ input: 'tp-figure' }} />}
            <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={order.symbol} digits={digits} value={stopLoss} onChange={setStopLoss} touch={fullScreen} />
            <StopLevelInput label="Take profit" kind="tp" side={side} symbol={order.symbol} digits={digits} value={takeProfit} onChange={setTakeProfit} touch={fullScreen} />
            <TextInput label={`Expiry (${timeZoneLabel()})`} description="Empty: good till cancelled" size={fieldSize} type="datetime-local" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)} />
            <ModifyFooter error={modify.isError ? modify.error : null} pending={modify.isPending} onCancel={onClose} errorTestId="modify-order-error" touch={fullScreen} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
