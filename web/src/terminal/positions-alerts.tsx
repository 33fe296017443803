import { ActionIcon, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconMail, IconPencil, IconTrash } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { memo, useMemo } from 'react';
import { errorMessage } from '../api/client';
import { useAlerts, useDeleteAlert, type AlertRow } from '../api/terminal-queries';
import { formatLocalTime, formatPrice, timeZoneLabel } from '../format/format';
import { stream } from '../stream/stream';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError } from '../ui/toast';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import classes from './positions-panel.module.css';

/** "Bid ≥ 1.10100": an alert's condition as the trader reads it. */
export const alertCondition = (a: Pick<AlertRow, 'price' | 'direction' | 'level'>, digits: number) => `${a.price === 'bid' ? 'Bid' : 'Ask'} ${a.direction === 'above' ? '≥' : '≤'} ${formatPrice(a.level, digits)}`;

/** A waiting alert's price now and how many points it has to go, following its own symbol only. */
function LiveDistance({ alert, digits }: { alert: AlertRow; digits: number }) {
  useQuotesFrame(useMemo(() => [alert.symbol], [alert.symbol]));
  const q = stream.getQuote(alert.symbol)?.quote;
  const now = q ? (alert.price === 'bid' ? q.bid : q.ask) : null;
  const points = now === null ? null : Math.round(Math.abs(alert.level - now) * 10 ** digits);
  return (
    <>
      <Table.Td className={`tp-num ${!q || q.stale ? classes.delayed : ''}`} data-testid="now">
        {formatPrice(now, digits)}
      </Table.Td>
      <Table.Td className="tp-num" data-testid="distance">
        {points === null ? '—' : points.toLocaleString('en-US')}
      </Table.Td>
    </>
  );
}

const AlertRowView = memo(function AlertRowView({ alert, record, onEdit, onDelete, deleting }: { alert: AlertRow; record: SymbolRecord | undefined; onEdit(a: AlertRow): void; onDelete(id: number): void; deleting: boolean }) {
  const digits = record?.digits ?? 5;
  const waiting = alert.status === 'active';
  return (
    <Table.Tr data-testid={`alert-${alert.alertId}`} data-status={alert.status} className={waiting ? undefined : classes.ended}>
      <Table.Td fw={600}>{alert.symbol}</Table.Td>
      <Table.Td className="tp-figure" data-testid="condition">
        {alertCondition(alert, digits)}
      </Table.Td>
      {waiting ? (
        <LiveDistance alert={alert} digits={digits} />
      ) : (
        <>
          <Table.Td className="tp-num">{alert.firedPrice === null ? '—' : formatPrice(alert.firedPrice, digits)}</Table.Td>
          <Table.Td className="tp-num">—</Table.Td>
        </>
      )}
      <Table.Td data-testid="state">
        {waiting ? (
          <Badge size="sm" variant="light" color="blue" styles={{ root: { textTransform: 'none' } }}>
            Waiting
          </Badge>
        ) : (
          <Text span size="xs" c="dimmed" className="tp-figure">
            {alert.status === 'fired' ? 'Fired' : 'Expired'} {alert.endedAt ? formatLocalTime(alert.endedAt) : ''}
          </Text>
        )}
      </Table.Td>
      <Table.Td className="tp-figure">{alert.expiration ? formatLocalTime(alert.expiration) : '—'}</Table.Td>
      <Table.Td className={classes.comment} c="dimmed" title={alert.note || undefined}>
        {alert.byMail && (
          <Tooltip label="A mail is sent too">
            <IconMail size={13} aria-label="By mail too" style={{ verticalAlign: -2, marginRight: 4 }} />
          </Tooltip>
        )}
        {alert.note}
      </Table.Td>
      <Table.Td className={classes.actions}>
        <Group gap={2} wrap="nowrap" justify="flex-end">
          {waiting && (
            <Tooltip label="Edit alert">
              <ActionIcon variant="subtle" size="sm" aria-label={`Edit alert ${alert.alertId}`} onClick={() => onEdit(alert)}>
                <IconPencil size={15} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Delete alert">
            <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Delete alert ${alert.alertId}`} loading={deleting} onClick={() => onDelete(alert.alertId)}>
              <IconTrash size={15} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

/** The Alerts tab: waiting alerts with the live price and the points to go, then the latest fired or expired; edit and delete. */
export function AlertsTable({ onEdit }: { onEdit(a: AlertRow): void }) {
  const alerts = useAlerts();
  const known = useSymbolMap();
  const remove = useDeleteAlert();
  const { mutate } = remove;
  const onDelete = useMemo(() => (id: number) => mutate(id, { onError: (err) => toastError(errorMessage(err), `Alert #${id} was not deleted`) }), [mutate]);
  if (alerts.isPending) return <TableSkeleton rows={3} height={28} />;
  if (alerts.isError) return <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} title="Could not load your alerts" />;
  const rows = alerts.data.data;
  if (rows.length === 0) return <EmptyState message="You have no price alerts. Set one with New alert, or from a price on the chart." />;
  return (
    <Table className={classes.table} aria-label="Price alerts" verticalSpacing={4} horizontalSpacing="xs" highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Symbol</Table.Th>
          <Table.Th>Alert</Table.Th>
          <Table.Th className={`tp-num ${classes.liveCol}`}>Now / fired at</Table.Th>
          <Table.Th className={`tp-num ${classes.liveCol}`}>To go (pts)</Table.Th>
          <Table.Th>State ({timeZoneLabel()})</Table.Th>
          <Table.Th>Expiry</Table.Th>
          <Table.Th>Note</Table.Th>
          <Table.Th className={classes.actions}>
            <Text span size="xs" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
              Actions
            </Text>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((a) => (
          <AlertRowView key={a.alertId} alert={a} record={known.get(a.symbol)} onEdit={onEdit} onDelete={onDelete} deleting={remove.isPending && remove.variables === a.alertId} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
