import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBellPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { useAlerts, useDeleteAlert, type AlertRow } from '../../api/terminal-queries';
import { formatDateTime, formatPrice } from '../../format/format';
import { useAppStore } from '../../state/app-store';
import { useQuote } from '../../stream/hooks';
import { EmptyState, ErrorState, TableSkeleton } from '../../ui/page';
import { toastError } from '../../ui/toast';
import { AlertModal, type AlertTarget } from '../alert-modal';
import { useSymbolMap } from '../positions-hooks';
import { alertCondition } from '../positions-alerts';
import classes from './phone-terminal.module.css';

/** One alert: its condition and what it waits for now (or when it fired, at what price); edit and delete with a thumb. */
function AlertItem({ alert, record, onEdit, onDelete, deleting }: { alert: AlertRow; record: SymbolRecord | undefined; onEdit(a: AlertRow): void; onDelete(id: number): void; deleting: boolean }) {
  const digits = record?.digits ?? 5;
  const q = useQuote(alert.symbol)?.quote;
  const waiting = alert.status === 'active';
  const now = q ? (alert.price === 'bid' ? q.bid : q.ask) : null;
  const points = now === null ? null : Math.round(Math.abs(alert.level - now) * 10 ** digits);
  return (
    <li className={classes.item} style={{ cursor: 'default', opacity: waiting ? 1 : 0.7 }} data-testid={`phone-alert-${alert.alertId}`}>
      <div style={{ minWidth: 0 }}>
        <Text fw={700} size="sm">
          {alert.symbol} <span className="tp-figure">{alertCondition(alert, digits)}</span>
        </Text>
        <Text size="xs" c="dimmed" className="tp-figure">
          {waiting
            ? `now ${formatPrice(now, digits)}${points === null ? '' : ` · ${points.toLocaleString('en-US')} pts to go`}${alert.expiration ? ` · until ${formatDateTime(alert.expiration)}` : ''}`
            : `${alert.status === 'fired' ? `fired at ${formatPrice(alert.firedPrice, digits)}` : 'expired'}${alert.endedAt ? ` · ${formatDateTime(alert.endedAt)}` : ''}`}
        </Text>
        {alert.note && (
          <Text size="xs" c="dimmed" truncate>
            {alert.note}
          </Text>
        )}
      </div>
      <Group gap={0} wrap="nowrap">
        {waiting && (
          <Button variant="subtle" className={classes.touchButton} miw={48} px={8} onClick={() => onEdit(alert)} aria-label={`Edit alert ${alert.alertId}`}>
            <IconPencil size={20} />
          </Button>
        )}
        <Button variant="subtle" color="red" className={classes.touchButton} miw={48} px={8} onClick={() => onDelete(alert.alertId)} loading={deleting} aria-label={`Delete alert ${alert.alertId}`}>
          <IconTrash size={20} />
        </Button>
      </Group>
    </li>
  );
}

/** The phone's Alerts: New alert, then the waiting alerts and the latest fired or expired; the dialog fills the screen. */
export function PhoneAlerts() {
  const alerts = useAlerts();
  const known = useSymbolMap();
  const remove = useDeleteAlert();
  const selected = useAppStore((s) => s.selectedSymbol);
  const [target, setTarget] = useState<AlertTarget | null>(null);
  const onDelete = (id: number) => remove.mutate(id, { onError: (err) => toastError(errorMessage(err), `Alert #${id} was not deleted`) });
  let body;
  if (alerts.isPending) body = <TableSkeleton rows={3} height={56} />;
  else if (alerts.isError) body = <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} title="Could not load your alerts" />;
  else if (alerts.data.data.length === 0) body = <EmptyState message="You have no price alerts" />;
  else
    body = (
      <ul className={classes.list} aria-label="Price alerts" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {alerts.data.data.map((a) => (
          <AlertItem key={a.alertId} alert={a} record={known.get(a.symbol)} onEdit={(alert) => setTarget({ kind: 'edit', alert })} onDelete={onDelete} deleting={remove.isPending && remove.variables === a.alertId} />
        ))}
      </ul>
    );
  return (
    <Stack gap={0}>
      <Group px="sm" pb="xs">
        <Button variant="light" className={classes.touchButton} leftSection={<IconBellPlus size={18} />} onClick={() => setTarget({ kind: 'new', symbol: selected ?? 'EURUSD' })} fullWidth>
          New alert
        </Button>
      </Group>
      {body}
      <AlertModal target={target} onClose={() => setTarget(null)} touch />
    </Stack>
  );
}
