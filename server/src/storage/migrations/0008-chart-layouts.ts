import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/** The terminal chart's layouts: one row per user and symbol holding its drawings and indicators as JSON. */
export function chartLayoutsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chart_layouts')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', engine === 'postgres' ? 'varchar(20)' : 'text', (c) => c.notNull())
        .addColumn('layout', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chart_layouts_pk', ['user_id', 'symbol'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
