import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * What a trader accepted when opening the account: one row per legal document, with the version of
 * its text (a digest of the file, services/legal-documents.ts), when, and from which address.
 * Rows are only ever added.
 */
export function legalAcceptancesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('legal_acceptances')
        .addColumn('id', engine === 'postgres' ? 'serial' : 'integer', (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('version', 'varchar(64)', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('legal_acceptances_user_idx').on('legal_acceptances').columns(['user_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('legal_acceptances').execute();
    },
  };
}
