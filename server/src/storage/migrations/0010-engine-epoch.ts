import { sql, type Kysely } from 'kysely';

/**
 * The engine's fencing token: one row whose `epoch` each engine leader increments before it loads
 * the open positions, and which every engine write transaction reads (sharing its row lock on
 * PostgreSQL). A leader that lost the lead finds a newer epoch and writes nothing; the increment
 * waits for the writers that read the old one, so the new leader loads what they committed.
 */
export function engineEpochMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('engine_epoch')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into engine_epoch (id, epoch) values (1, 0)`.execute(db);
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
