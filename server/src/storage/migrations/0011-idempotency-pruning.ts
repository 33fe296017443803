import type { Kysely } from 'kysely';

/**
 * Idempotency keys are kept for a day and then removed (services/idempotency.ts): the hourly
 * pruning finds the old ones by their creation time instead of reading the whole table.
 */
export function idempotencyPruningMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('idempotency_keys_created_at').execute();
    },
  };
}
