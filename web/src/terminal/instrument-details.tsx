import { Group, Modal, Stack, Text } from '@mantine/core';
import type { SymbolRecord } from '@tradeport/contracts';
import { useSymbols } from '../api/queries';
import { useCurrentAccount } from '../api/trading-accounts';
import { formatPrice } from '../format/format';
import { useQuote } from '../stream/hooks';
import { instrumentSpec, sessionText } from './instrument-spec';
import { spreadPoints } from './price-pages';
import classes from './price-table.module.css';

/** The market's state in words, live. */
function marketState(q: { open: boolean; stale: boolean; bid: number | null } | undefined): { text: string; color: string } {
  if (!q) return { text: 'Waiting for a price', color: 'var(--tp-muted)' };
  if (!q.open) return { text: 'Market closed', color: 'var(--tp-muted)' };
  if (q.stale || q.bid === null) return { text: 'No recent price', color: 'var(--tp-negative)' };
  return { text: 'Market open', color: 'var(--tp-positive)' };
}

/**
 * An instrument's specification (the price table's Details): the live bid, ask and spread, then
 * what the catalogue says of it — digits, contract, volumes, margin, swaps and trading hours.
 */
export function InstrumentDetails({ record }: { record: SymbolRecord }) {
  const q = useQuote(record.Symbol)?.quote;
  const swaps = useCurrentAccount().account?.symbolSwaps.find((x) => x.symbol === record.Symbol);
  const live = q && !q.stale && q.bid !== null && q.ask !== null;
  const state = marketState(q);
  const spread = live ? spreadPoints(q.bid, q.ask, record.digits) : null;
  return (
    <Stack gap="md" data-testid="instrument-details">
      <div>
        <Text size="sm" c="dimmed">
          {record.description}
        </Text>
        <Text size="sm" fw={600} c={state.color} data-testid="details-market">
          {state.text}
        </Text>
      </div>
      <Group gap="xl" className="tp-figure" wrap="nowrap">
        {[
          { label: 'Bid', value: live ? formatPrice(q.bid, record.digits) : '—' },
          { label: 'Ask', value: live ? formatPrice(q.ask, record.digits) : '—' },
          { label: 'Spread', value: spread === null ? '—' : `${spread} points` },
        ].map((f) => (
          <div key={f.label}>
            <Text size="xs" c="dimmed">
              {f.label}
            </Text>
            <Text fw={700} size="lg" data-testid={`details-${f.label.toLowerCase()}`}>
              {f.value}
            </Text>
          </div>
        ))}
      </Group>
      <dl className={classes.spec}>
        {instrumentSpec(record, swaps).map((line) => (
          <div key={line.label}>
            <dt>{line.label}</dt>
            <dd className={line.figure ? 'tp-figure' : undefined}>{line.value}</dd>
          </div>
        ))}
        <div>
          <dt>Trading hours</dt>
          <dd>
            {record.sessions.length === 0 ? 'Not given' : record.sessions.map((s) => <span key={s}>{sessionText(s)}</span>)}
            <Text span size="xs" c="dimmed">
              Closed on the market’s holidays; times are the exchange’s own, daylight saving included.
            </Text>
          </dd>
        </div>
      </dl>
    </Stack>
  );
}

/** The desktop's Details: the specification in a dialog, opened from a price row's menu. */
export function InstrumentDetailsModal({ symbol, onClose }: { symbol: string | null; onClose(): void }) {
  const record = useSymbols().data?.data.find((r) => r.Symbol === symbol);
  return (
    <Modal opened={!!symbol && !!record} onClose={onClose} title={symbol ? `${symbol} specification` : ''} size={520} closeButtonProps={{ 'aria-label': 'Close the specification' }}>
      {record && <InstrumentDetails record={record} />}
    </Modal>
  );
}
