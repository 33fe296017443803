import type { Kysely } from 'kysely';

/**
 * The trader's finished orders (`getPendingOrders.php?status=history`) are read newest finished
 * first: by user, then the time an order reached its final state (which never changes again), then id.
 */
export function orderHistoryMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('orders_user_updated_idx').on('orders').columns(['user_id', 'updated_at', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
