import { Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../format/format';

/** A time on two lines (date, then time of day) so date columns stay narrow: '24 Nov 2026' / '09:15:02 UTC'. */
export function DateTimeText({ value }: { value: string | null }) {
  const text = formatDateTime(value);
  const cut = text.indexOf(', ');
  if (cut < 0) return <Text size="sm" className="tp-figure">{text}</Text>;
  return (
    <>
      <Text size="sm" className="tp-figure">
        {text.slice(0, cut)}
      </Text>
      <Text size="xs" c="dimmed" className="tp-figure">
        {text.slice(cut + 2)}
      </Text>
    </>
  );
}

export type SortDirection = 'asc' | 'desc';

/** A column header that sorts its table; `aria-sort` tells screen readers the order. */
export function SortableTh<K extends string>({ column, sort, onSort, numeric, children }: { column: K; sort: { key: K; direction: SortDirection }; onSort: (key: K) => void; numeric?: boolean; children: ReactNode }) {
  const active = sort.key === column;
  const SortIcon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th className={numeric ? 'tp-num' : undefined} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} fw={600} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
        {children}
        <SortIcon size={14} stroke={1.8} aria-hidden style={{ opacity: active ? 1 : 0.45 }} />
      </UnstyledButton>
    </Table.Th>
  );
}
