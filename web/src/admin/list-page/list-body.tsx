import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePhone } from '../../ui/records';
import { EmptyState, ErrorState, TableSkeleton } from '../../ui/page';

/** What ListBody reads of a list's query. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The filters a list's empty state offers to clear: whether any is set, and how to clear them. */
export interface ClearableFilters {
  active: boolean;
  clear: () => void;
}

/**
 * The body of a back-office list, in the order every list decides it: `problem` (filters that can
 * match nothing, such as a From date after To) instead of anything; skeleton rows while the first
 * answer loads; the failure with Try again; the empty message (the filtered one, with Clear
 * filters, while `filters` are set); else the rows, as `cards` on a phone and as `table` on a wider
 * screen, with the `pager` under them.
 */
export function ListBody({
  query,
  count,
  problem,
  skeleton,
  errorTitle,
  empty,
  emptyAction,
  filters,
  emptyFiltered,
  cards,
  table,
  pager,
}: {
  query: ListQueryState;
  /** The rows there are: 0 shows the empty message. */
  count: number;
  problem?: string | null;
  skeleton: { rows: number; height?: number };
  errorTitle: string;
  empty: string;
  emptyAction?: ReactNode;
  filters?: ClearableFilters;
  emptyFiltered?: string;
  cards: () => ReactNode;
  table: () => ReactNode;
  pager?: ReactNode;
}) {
  const phone = usePhone();
  if (problem) return <EmptyState message={problem} />;
  if (query.isPending) return <TableSkeleton rows={skeleton.rows} height={skeleton.height} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />;
  if (count === 0) {
    if (filters?.active && emptyFiltered) {
      const clear = (
        <Button variant="light" size="xs" onClick={filters.clear}>
          Clear filters
        </Button>
      );
      return <EmptyState message={emptyFiltered} action={clear} />;
    }
    return <EmptyState message={empty} action={emptyAction} />;
  }
  return (
    <>
      {phone ? cards() : table()}
      {pager}
    </>
  );
}
