import { sql, type Kysely } from 'kysely';

/**
 * An instrument's trading mode (docs/design.md#instruments), set in the back office: full,
 * close-only (closes only; no new position or order) or disabled (not offered). It replaces the
 * `enabled` flag the catalogue file used to set: an instrument the file had dropped becomes
 * close-only while it still has open positions or pending orders, disabled otherwise.
 */
export function instrumentModesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('instruments').addColumn('trading_mode', 'varchar(10)', (c) => c.notNull().defaultTo('full')).execute();
      await sql`
        update instruments set trading_mode = case
          when symbol in (select symbol from positions where status = 'open') or symbol in (select symbol from orders where status = 'pending') then 'close-only'
          else 'disabled' end
        where enabled <> 1`.execute(db);
      await db.schema.alterTable('instruments').dropColumn('enabled').execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
