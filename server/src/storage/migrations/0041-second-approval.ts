import type { Kysely } from 'kysely';

/**
 * Four-eyes approval (docs/design.md#four-eyes-approval): a withdrawal above the second-approval
 * amount keeps who gave its first approval, and when, while it stays pending for the second.
 */
export const secondApprovalMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('money_requests').addColumn('first_approved_by', 'integer').execute();
    await db.schema.alterTable('money_requests').addColumn('first_approved_at', 'bigint').execute();
  },
  async down(): Promise<void> {
    throw new Error('Not reversible; restore from a backup instead.');
  },
};
