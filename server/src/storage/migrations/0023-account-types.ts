import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Account types (docs/design.md#account-types): what a broker sells, as MetaTrader 5's groups. A
 * type is live or demo and may set a leverage for new accounts, margin-call and stop-out levels and
 * a trading mode; a value it leaves unset (null) is the installation's (`DEFAULT_LEVERAGE`,
 * `MARGIN_CALL_LEVEL`, `STOP_OUT_LEVEL`). Each kind has one default type, which new accounts of the
 * kind get. Two defaults that set nothing, "Standard" (live) and "Demo", are created here and every
 * existing account is given its kind's: an installation that sets nothing sees no change.
 */
export function accountTypesMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());
  const run = async (db: Kysely<unknown>): Promise<void> => {
    await db.schema
      .createTable('account_types')
      .addColumn('id', idType, id)
      .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
      .addColumn('kind', 'varchar(4)', (c) => c.notNull())
      .addColumn('leverage', 'integer')
      .addColumn('margin_call_level', 'double precision')
      .addColumn('stop_out_level', 'double precision')
      .addColumn('trading_mode', 'varchar(10)', (c) => c.notNull().defaultTo('full'))
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('state', 'varchar(8)', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('account_types_kind_check', sql`kind in ('live', 'demo')`)
      .addCheckConstraint('account_types_mode_check', sql`trading_mode in ('full', 'close-only', 'disabled')`)
      .addCheckConstraint('account_types_state_check', sql`state in ('active', 'disabled')`)
      .execute();
    // One default per kind.
    await sql`create unique index account_types_default_idx on account_types (kind) where is_default = 1`.execute(db);
    const now = Date.now();
    await sql`insert into account_types (name, kind, trading_mode, is_default, state, created_at, updated_at) values ('Standard', 'live', 'full', 1, 'active', ${now}, ${now}), ('Demo', 'demo', 'full', 1, 'active', ${now}, ${now})`.execute(db);
    await db.schema.alterTable('trading_accounts').addColumn('account_type_id', 'integer', (c) => c.references('account_types.id')).execute();
    await sql`update trading_accounts set account_type_id = (select t.id from account_types t where t.kind = trading_accounts.kind and t.is_default = 1)`.execute(db);
    if (engine === 'postgres') await sql`alter table trading_accounts alter column account_type_id set not null`.execute(db);
    await db.schema.createIndex('trading_accounts_type_idx').on('trading_accounts').columns(['account_type_id', 'id']).execute();
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === 'sqlite') await db.transaction().execute(run);
      else await run(db);
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
