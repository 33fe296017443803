import { Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RequestStatus } from '@tradeport/contracts';
import type { ReactNode } from 'react';
import { formatUsd } from '../format/format';
import { RequestStatusBadge } from './status-badge';

/** Records on a phone: lists of items in place of tables, for the back office and the trader's own lists. */

/** A phone (768 px wide or less): records become lists of items instead of tables that scroll sideways. */
export function usePhone(): boolean {
  return useMediaQuery('(max-width: 768px)') ?? false;
}

/** A phone's list of records, one item per row of the table it stands for (`dimmed` while a new page loads). */
export function RecordList({ label, dimmed = false, children }: { label: string; dimmed?: boolean; children: ReactNode }) {
  return (
    <Stack gap={0} role="list" aria-label={label} aria-busy={dimmed || undefined} style={{ opacity: dimmed ? 0.6 : 1, transition: 'opacity 120ms' }}>
      {children}
    </Stack>
  );
}

/**
 * One record on a phone: what it is (`title`, `subtitle`) on the left, its main figure (`aside`) on
 * the right, and the rest below, in a few short lines.
 */
export function RecordItem({ title, subtitle, aside, testId, children }: { title: ReactNode; subtitle?: ReactNode; aside?: ReactNode; testId?: string; children?: ReactNode }) {
  return (
    <Stack role="listitem" gap={4} py="sm" className="tp-record" data-testid={testId}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          {title}
          {subtitle !== undefined && (
            <Text size="xs" c="dimmed" truncate="end">
              {subtitle}
            </Text>
          )}
        </div>
        {aside !== undefined && <div style={{ flex: 'none' }}>{aside}</div>}
      </Group>
      {children}
    </Stack>
  );
}

/** A request's amount over its status, for the right of a phone's record. */
export function AmountAndStatus({ amount, status }: { amount: string; status: RequestStatus }) {
  return (
    <Stack gap={2} align="flex-end">
      <Text size="sm" fw={700} className="tp-figure">
        {formatUsd(amount)} USD
      </Text>
      <RequestStatusBadge status={status} />
    </Stack>
  );
}

