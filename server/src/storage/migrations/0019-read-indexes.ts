import type { Kysely } from 'kysely';

/**
 * Indexes for cold reads that sorted, or scanned, more rows than the page they answer (found by
 * EXPLAIN QUERY PLAN on SQLite and EXPLAIN on PostgreSQL): each index ends in the list's order, so
 * a page is read in order and stops at its limit.
 *
 * - `positions_closed_idx`: the back office's closed trades (and their export), all traders, newest
 *   closed first; they sorted every closed position for each page.
 * - `positions_user_opened_idx`: a trader's order history, whose market orders are their positions
 *   newest opened first.
 * - `ledger_entries_user_created_idx`: a trader's balance operations, newest first, and the history
 *   totals over a date range.
 * - `orders_user_idx`: a trader's latest orders of every status (`getPendingOrders?status=all`),
 *   newest placed first (by id); PostgreSQL walked every trader's orders to find them.
 * - `money_requests_status_id_idx`: the back office's money requests filtered by status alone,
 *   newest first (the status index also names the kind, so it could not give that order).
 */
const INDEXES: [name: string, table: string, columns: string[]][] = [
  ['positions_closed_idx', 'positions', ['status', 'closed_at', 'id']],
  ['positions_user_opened_idx', 'positions', ['user_id', 'opened_at', 'id']],
  ['ledger_entries_user_created_idx', 'ledger_entries', ['user_id', 'created_at', 'id']],
  ['orders_user_idx', 'orders', ['user_id', 'id']],
  ['money_requests_status_id_idx', 'money_requests', ['status', 'id']],
];

export function readIndexesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
    },
  };
}
