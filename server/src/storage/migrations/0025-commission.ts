import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Commission (docs/design.md#commission): an account type may charge one, `commission_cents` USD
 * cents per lot or per million USD traded (`commission_basis`), on each deal; both null: none, as
 * the catalogue charges none. Each position keeps what it has been charged (`commission_cents`,
 * negative as posted: the open's, then the close's added); each charge is a `commission` ledger
 * entry. Existing types charge nothing, so an installation sees no change.
 */
export function commissionMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('account_types').addColumn('commission_basis', 'varchar(7)').execute();
      await db.schema.alterTable('account_types').addColumn('commission_cents', 'integer').execute();
      if (engine === 'postgres') {
        await sql`alter table account_types add constraint account_types_commission_check check ((commission_basis is null and commission_cents is null) or (commission_basis in ('lot', 'million') and commission_cents > 0))`.execute(db);
      }
      await db.schema
        .alterTable('positions')
        .addColumn('commission_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
