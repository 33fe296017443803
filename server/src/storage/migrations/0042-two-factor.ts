import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Two-factor sign-in (docs/architecture.md#two-factor-sign-in). A user's TOTP secret once confirmed
 * (`totp_secret`, `totp_enabled_at`), one being set up and not yet confirmed
 * (`totp_pending_secret`), and the last time step a code was accepted for (`totp_last_step`), so a
 * code works once. Backup codes are kept only as scrypt hashes. A sign-in challenge is the step
 * between a right password and a session: its token's hash, whose sign-in it continues, and how
 * many wrong codes it has seen.
 */
export function twoFactorMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('totp_secret', 'varchar(64)').execute();
      await db.schema.alterTable('users').addColumn('totp_pending_secret', 'varchar(64)').execute();
      await db.schema.alterTable('users').addColumn('totp_enabled_at', 'bigint').execute();
      await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
      await db.schema
        .createTable('backup_codes')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('code_hash', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('backup_codes_user_idx').on('backup_codes').columns(['user_id']).execute();
      await db.schema
        .createTable('sign_in_challenges')
        .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('step', 'varchar(10)', (c) => c.notNull())
        .addColumn('remember_me', 'integer', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_challenges_user_idx').on('sign_in_challenges').columns(['user_id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
