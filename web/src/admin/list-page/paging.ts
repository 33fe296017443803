import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePhone } from '../../ui/records';

/**
 * The paging of the back office's lists: a page kept with the filters it belongs to, for lists the
 * server pages (`useListQuery`), lists paged here (`usePaging`) and the audit log's cursor
 * (`useCursorPaging`).
 */

/** The spec's page size: 10 rows, 15 on a phone (768 px or less). */
export function usePageSize(): number {
  return usePhone() ? 15 : 10;
}

/** How many pages `total` rows fill: at least one, so an empty list is on page 1 of 1. */
export const pageCount = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/** The rows a page shows, counted from 1 ('Showing 11–20 of 45'); `last` is below `first` when there are none. */
export function pageSpan(page: number, pageSize: number, total: number): { first: number; last: number } {
  return { first: (page - 1) * pageSize + 1, last: Math.min(total, page * pageSize) };
}

/**
 * The page to show of a list of `total` rows: `page`, or the last page when rows disappeared under
 * it (decided, deactivated or closed elsewhere, or left out by a filter).
 */
export const pageThatExists = (page: number, total: number, pageSize: number): number => Math.min(page, pageCount(total, pageSize));

export interface Paging {
  page: number;
  pageSize: number;
  /** The rows before this page: what the server is asked to skip. */
  offset: number;
  setPage: (page: number) => void;
}

/**
 * The page shown, kept with the filters it belongs to (`filterKey`): a change of filter or of page
 * size starts again on page 1, and the first request after the change already asks for page 1.
 */
export function usePaging(filterKey: string): Paging {
  const pageSize = usePageSize();
  const key = `${pageSize}:${filterKey}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  return { page, pageSize, offset: (page - 1) * pageSize, setPage: (next: number) => setPaging({ key, page: next }) };
}

/** Moves to the last page that exists once `total` is known to be fewer rows than the page shown needs. */
export function useStayOnAPage({ page, pageSize, setPage }: Paging, total: number | undefined): void {
  const target = total === undefined ? page : pageThatExists(page, total, pageSize);
  useEffect(() => {
    if (target !== page) setPage(target);
  }, [target, page, setPage]);
}

/** A list hook of an admin call paged by the server: it takes the filters with `limit` and `offset`. */
type ListHook<F, T> = (input: F & { limit: number; offset: number }, enabled: boolean) => UseQueryResult<T>;

/**
 * A list the server filters and pages: the query for the page shown (the page before stays, dimmed,
 * while the next loads), the page, and the props of its pager. A change of `filters` starts on page 1.
 */
export function useListQuery<F extends object, T extends { total: number }>(useList: ListHook<F, T>, filters: F, enabled = true) {
  const paging = usePaging(JSON.stringify(filters));
  const query = useList({ ...filters, limit: paging.pageSize, offset: paging.offset }, enabled);
  const total = query.data?.total ?? 0;
  // Only an answer for these filters tells whether the page still exists.
  useStayOnAPage(paging, query.data && !query.isPlaceholderData ? total : undefined);
  const page = pageThatExists(paging.page, total, paging.pageSize);
  return { query, total, page, pageSize: paging.pageSize, pager: { page, pageSize: paging.pageSize, total, onChange: paging.setPage } };
}

/**
 * A list paged by a cursor (the audit log: each page starts below the last id of the one before).
 * Newer goes back a page, Older on from the last row shown; a change of `filterKey` starts again
 * from the newest rows.
 */
export function useCursorPaging(filterKey: string) {
  const [paging, setPaging] = useState<{ filterKey: string; cursors: (number | undefined)[] }>({ filterKey, cursors: [undefined] });
  const cursors = paging.filterKey === filterKey ? paging.cursors : [undefined];
  return {
    /** Where the page shown starts: undefined for the newest rows. */
    before: cursors[cursors.length - 1],
    pageNumber: cursors.length,
    newer: () => setPaging({ filterKey, cursors: cursors.slice(0, -1) }),
    older: (lastShown: number | undefined) => setPaging({ filterKey, cursors: [...cursors, lastShown] }),
  };
}
