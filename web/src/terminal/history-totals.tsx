import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { formatUsd, signOf } from '../format/format';
import { ledgerKindLabel } from '../format/order-types';
import classes from './history-totals.module.css';

export type HistoryRange = { from?: number; to?: number };

/** History's totals over a range (`getHistoryTotals`), refetched with every money event (`queryKeys.ledger`). */
export function useHistoryTotals(range: HistoryRange, enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.ledger, 'totals', range.from ?? null, range.to ?? null],
    queryFn: ({ signal }) => callApi('getHistoryTotals', range, { signal }),
    enabled,
  });
}

/** A signed amount as History shows money: '+1,234.50', '-7.20', '0.00'. */
export function signedUsd(value: string): string {
  return `${signOf(value) > 0 ? '+' : ''}${formatUsd(value)}`;
}

function Item({ label, value, signed = false, net = false, testId }: { label: string; value: string | null; signed?: boolean; net?: boolean; testId: string }) {
  const tone = value !== null && signed ? (signOf(value) > 0 ? 'tp-positive' : signOf(value) < 0 ? 'tp-negative' : undefined) : undefined;
  return (
    <div className={`${classes.item} ${net ? classes.net : ''} ${value === null ? classes.muted : ''}`}>
      <dt>{label}</dt>
      <dd className={tone} data-testid={testId}>
        {value === null ? '—' : signed ? signedUsd(value) : formatUsd(value)}
      </dd>
    </div>
  );
}

/**
 * The range's totals in USD: profit of the positions closed, swaps, deposits, withdrawals, any other
 * balance operation by its kind, and the net change of the balance (credit aside, shown apart).
 * `bar` is the desktop's line under the table; `grid` the phone's block above its list.
 */
export function HistoryTotals({ range, label, layout = 'bar' }: { range: HistoryRange; label: string; layout?: 'bar' | 'grid' }) {
  const totals = useHistoryTotals(range);
  const t = totals.data?.data;
  return (
    <div className={layout === 'bar' ? classes.bar : classes.grid} role="group" aria-label={`Totals, ${label}`} data-testid="range-totals" aria-busy={totals.isPending || undefined}>
      <span className={classes.title}>Totals · {label}</span>
      <dl className={classes.list}>
        <Item label="Profit" value={t?.profit ?? null} signed testId="total-profit" />
        <Item label="Swaps" value={t?.swaps ?? null} signed testId="total-swaps" />
        <Item label="Deposits" value={t?.deposits ?? null} testId="total-deposits" />
        <Item label="Withdrawals" value={t?.withdrawals ?? null} testId="total-withdrawals" />
        {t?.other.map((o) => <Item key={o.kind} label={ledgerKindLabel(o.kind)} value={o.amount} signed testId={`total-${o.kind}`} />)}
        <Item label="Net" value={t?.net ?? null} signed net testId="total-net" />
        {t && signOf(t.credit) !== 0 && <Item label="Credit" value={t.credit} signed testId="total-credit" />}
      </dl>
      {totals.isError ? (
        <span className={classes.count} role="alert">
          Totals could not be loaded.{' '}
          <Anchor component="button" type="button" size="inherit" onClick={() => void totals.refetch()}>
            Try again
          </Anchor>
        </span>
      ) : (
        t && (
          <span className={classes.count} data-testid="total-closed">
            {t.closedPositions.toLocaleString('en-US')} closed position{t.closedPositions === 1 ? '' : 's'}
          </span>
        )
      )}
    </div>
  );
}
