import { Button, Checkbox, Modal, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { alertProblem, type AlertDirection, type AlertPrice } from '@tradeport/trading-math';
import { useEffect, useState } from 'react';
import { useSymbols } from '../api/queries';
import { useAddAlert, useModifyAlert, type AlertRow } from '../api/terminal-queries';
import { formatPrice, fromLocalInput, toLocalInput } from '../format/format';
import { useQuote } from '../stream/hooks';
import { toastSuccess } from '../ui/toast';
import { ExpiryInput } from './expiry-input';
import { ModifyFooter } from './modify-footer';
import { PriceStepper } from './stop-level-input';
import { roundToDigits } from './stop-levels';

/** What the dialog edits: a new alert on `symbol` (with its level, when it was picked on the chart), or a waiting one. */
export type AlertTarget = { kind: 'new'; symbol: string; level?: number } | { kind: 'edit'; alert: AlertRow };

/** Segments a thumb can hit (44 px), as the phone's other segmented controls. */
const thumb = { label: { minHeight: 44, display: 'flex', alignItems: 'center', justifyContent: 'center' } } as const;

/** How far from the price a new alert's level starts, in points, on the side it waits for. */
const START_POINTS = 20;

/** Whether the browser can show notifications and the trader has not decided yet (a button asks). */
function useNotificationPermission(): [NotificationPermission | 'unsupported', () => void] {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported'>(supported ? Notification.permission : 'unsupported');
  const ask = () => void Notification.requestPermission().then(setPermission);
  return [permission, ask];
}

/**
 * A price alert (docs/design.md#price-alerts): the symbol, its bid or ask, above or below a level,
 * a note, an expiry and whether a mail goes out too. The level is checked against the live price
 * with the server's own rule (`alertProblem`); the server fires it, with the browser closed or not.
 */
export function AlertModal({ target, onClose, touch = false }: { target: AlertTarget | null; onClose(): void; touch?: boolean }) {
  const catalogue = useSymbols().data?.data;
  const editing = target?.kind === 'edit' ? target.alert : null;
  const [symbol, setSymbol] = useState('');
  const [price, setPrice] = useState<AlertPrice>('bid');
  const [direction, setDirection] = useState<AlertDirection>('above');
  const [level, setLevel] = useState(0);
  const [note, setNote] = useState('');
  const [expiry, setExpiry] = useState('');
  const [byMail, setByMail] = useState(false);
  const [permission, askPermission] = useNotificationPermission();
  const add = useAddAlert();
  const modify = useModifyAlert();
  const send = editing ? modify : add;
  const record = catalogue?.find((r) => r.Symbol === symbol);
  const digits = record?.digits ?? 5;
  const q = useQuote(symbol || undefined)?.quote;
  const quote = q && typeof q.bid === 'number' && typeof q.ask === 'number' ? { bid: q.bid, ask: q.ask } : null;
  const now = quote ? (price === 'bid' ? quote.bid : quote.ask) : null;

  useEffect(() => {
    if (!target) return;
    add.reset();
    modify.reset();
    if (target.kind === 'edit') {
      const a = target.alert;
      setSymbol(a.symbol);
      setPrice(a.price);
      setDirection(a.direction);
      setLevel(a.level);
      setNote(a.note);
      setExpiry(toLocalInput(a.expiration));
      setByMail(a.byMail);
    } else {
      setSymbol(target.symbol);
      setPrice('bid');
      setNote('');
      setExpiry('');
      setByMail(false);
      setLevel(target.level ?? 0);
      setDirection('above');
    }
    // Reset for each target only (the mutations' reset functions are stable).
  }, [target]);

  // A new alert's level starts a few points beyond the price, once there is one; a level picked on the chart sets the direction.
  useEffect(() => {
    if (target?.kind !== 'new' || now === null) return;
    if (level > 0) {
      if (target.level !== undefined && level === target.level) setDirection(level >= now ? 'above' : 'below');
      return;
    }
    setLevel(roundToDigits(now + (direction === 'above' ? 1 : -1) * START_POINTS * 10 ** -digits, digits));
  }, [target, now, level, direction, digits]);

  const problem = quote && level > 0 ? alertProblem(price, direction, level, quote) : null;
  const points = now !== null && level > 0 ? Math.round((level - now) * 10 ** digits) : null;
  const expiresAt = expiry ? fromLocalInput(expiry) : null;
  const title = editing ? `Edit alert #${editing.alertId} · ${editing.symbol}` : 'New price alert';

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close', size: touch ? 44 : undefined }} opened={target !== null} onClose={onClose} title={title} size="sm" centered={!touch} fullScreen={touch} data-testid="alert-dialog">
      {target && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (problem || !(level > 0) || !symbol) return;
            const fields = { price, direction, level, note: note.trim(), expiration: expiresAt, byMail };
            const done = () => {
              toastSuccess(`${symbol} ${price} ${direction} ${formatPrice(level, digits)}`, editing ? 'Alert changed' : 'Alert set');
              onClose();
            };
            if (editing) modify.mutate({ alertId: editing.alertId, ...fields }, { onSuccess: done });
            else add.mutate({ symbol, ...fields }, { onSuccess: done });
          }}
        >
          <Stack gap="sm">
            {editing ? (
              <Text size="sm" fw={600}>
                {editing.symbol}
              </Text>
            ) : (
              <Select label="Symbol" size={touch ? 'lg' : 'xs'} data={(catalogue ?? []).map((r) => r.Symbol)} value={symbol || null} onChange={(v) => v && (setSymbol(v), setLevel(0))} searchable allowDeselect={false} comboboxProps={{ withinPortal: true }} />
            )}
            <SimpleGrid cols={touch ? 1 : { base: 1, xs: 2 }} spacing="sm">
              <Stack gap={4}>
                <Text size="sm" fw={500} id="alert-price-label">
                  Price
                </Text>
                <SegmentedControl fullWidth size={touch ? 'md' : 'xs'} styles={touch ? thumb : undefined} aria-labelledby="alert-price-label" value={price} onChange={(v) => setPrice(v as AlertPrice)} data={[{ value: 'bid', label: 'Bid' }, { value: 'ask', label: 'Ask' }]} />
              </Stack>
              <Stack gap={4}>
                <Text size="sm" fw={500} id="alert-direction-label">
                  Fires when it is
                </Text>
                <SegmentedControl fullWidth size={touch ? 'md' : 'xs'} styles={touch ? thumb : undefined} aria-labelledby="alert-direction-label" value={direction} onChange={(v) => setDirection(v as AlertDirection)} data={[{ value: 'above', label: 'At or above' }, { value: 'below', label: 'At or below' }]} />
              </Stack>
            </SimpleGrid>
            <PriceStepper
              label="Level"
              what="alert level"
              digits={digits}
              value={level}
              onChange={setLevel}
              touch={touch}
              error={problem}
              description={now === null ? 'No price yet' : `${price === 'bid' ? 'Bid' : 'Ask'} now ${formatPrice(now, digits)}${points === null ? '' : ` · ${points > 0 ? '+' : ''}${points.toLocaleString('en-US')} pts away`}`}
              data-testid="alert-level"
            />
            <TextInput label="Note" size={touch ? 'lg' : 'xs'} maxLength={100} value={note} onChange={(e) => setNote(e.currentTarget.value)} placeholder="Optional: what to do then" />
            <ExpiryInput value={expiry} onChange={setExpiry} size={touch ? 'lg' : 'xs'} />
            <Checkbox size={touch ? 'md' : 'sm'} label="Also send me a mail" description="It always shows in every terminal you have open." checked={byMail} onChange={(e) => setByMail(e.currentTarget.checked)} />
            {permission === 'default' && (
              <Button variant="light" size={touch ? 'lg' : 'xs'} leftSection={<IconBell size={14} />} onClick={askPermission}>
                Allow browser notifications
              </Button>
            )}
            <ModifyFooter error={send.isError ? send.error : null} pending={send.isPending} onCancel={onClose} errorTestId="alert-error" touch={touch} submitLabel={editing ? 'Save' : 'Set alert'} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
