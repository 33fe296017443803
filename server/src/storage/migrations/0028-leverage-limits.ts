import { sql, type Kysely } from 'kysely';

/**
 * The most leverage an account type allows on an instrument group or an instrument
 * (docs/design.md#leverage-limits): one row per type, scope ('group' or 'symbol') and name. A
 * position is margined at the lower of its account's leverage and the limit of its instrument,
 * else of its group. Existing types have none, so nothing changes.
 */
export function leverageLimitsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('account_type_leverage')
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('scope', 'varchar(6)', (c) => c.notNull())
        .addColumn('name', 'varchar(20)', (c) => c.notNull())
        .addColumn('max_leverage', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('account_type_leverage_pk', ['account_type_id', 'scope', 'name'])
        .addCheckConstraint('account_type_leverage_check', sql`scope in ('group', 'symbol') and max_leverage between 1 and 1000`)
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
