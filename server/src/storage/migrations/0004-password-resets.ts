import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * One-time password-reset tokens. Only the SHA-256 of a token is stored, like sessions, so the
 * table alone cannot reset anyone's password. A token is spent (`used_at`) or superseded by a newer
 * one (`revoked_at`); either way it no longer works.
 */
export function passwordResetMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('password_resets')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .execute();
      // The per-account limit counts a user's recent tokens.
      await db.schema.createIndex('password_resets_user_idx').on('password_resets').columns(['user_id', 'created_at']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
