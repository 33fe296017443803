import { z } from 'zod';

/**
 * Cursor paging of a trader's history lists. Without any of these a list answers as the spec's
 * call does (the newest rows, no `nextCursor`); with any of them it answers one page of at most
 * `limit` rows (default 100), newest first, and `nextCursor`, the `before` that gives the next page
 * (null after the last). Rows are ordered by time and then id, newest first, so pages never skip or
 * repeat a row, even rows of the same millisecond. `from` (inclusive) and `to` (exclusive) are
 * epoch milliseconds.
 */
export const HISTORY_PAGE_MAX = 500;
export const HISTORY_PAGE_DEFAULT = 100;
/** 2000-01-01: anything earlier is taken for a mistake (seconds sent for milliseconds, say) rather than read as 1970. */
const EARLIEST_RANGE_MS = Date.UTC(2000, 0, 1);
const epochMs = (name: string) => {
  const message = `${name} must be a time in epoch milliseconds (the year 2000 or later).`;
  return z.coerce.number({ error: message }).int(message).min(EARLIEST_RANGE_MS, message).max(8.64e15, message).optional();
};
/** A page cursor: `<time>_<id>` of the last row of the page before, as `nextCursor` gave it. */
const cursorPattern = /^(\d{1,16})_(\d{1,10})$/;
const pageCursor = z
  .string({ error: 'before must be a cursor from nextCursor.' })
  .regex(cursorPattern, 'before must be a cursor from nextCursor.')
  .transform((v) => {
    const [, time, id] = cursorPattern.exec(v) ?? [];
    return { time: Number(time), id: Number(id) };
  })
  .refine((c) => c.time <= 8.64e15 && c.id > 0 && c.id <= 2_147_483_647, 'before must be a cursor from nextCursor.')
  .optional();
export const historyPaging = {
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, `limit must be between 1 and ${HISTORY_PAGE_MAX}.`)
    .max(HISTORY_PAGE_MAX, `limit must be between 1 and ${HISTORY_PAGE_MAX}.`)
    .optional(),
  before: pageCursor,
  from: epochMs('from'),
  to: epochMs('to'),
};
/** A range's check: `from` before `to` when both are given. */
export const fromBeforeTo = (q: { from?: number; to?: number }) => q.from === undefined || q.to === undefined || q.from < q.to;
export const fromBeforeToIssue = { message: 'from must be before to.', path: ['from'] };
export const pageCursorOf = (time: number, id: number): string => `${time}_${id}`;
